//! MagicBoard: the breadth-first shortest path, the shared depth-first verdicts and the seed's own
//! recursive search agree on 10 000 random boards of every size 5 to 20; hand-made boards.

use plysolve::engine::conformance;
use plysolve::engine::reach::{shortest_path, Puzzle, Verdicts};
use plysolve::engine::MemoryBudget;
use plysolve::games::magic_board::{generate, solve, Board, SizeRule, Wanted};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The seed's method: recursive depth-first search marking visited squares, on (row, col).
fn seed_recursive(values: &[Vec<usize>], at: (usize, usize), visited: &mut [Vec<bool>]) -> bool {
    let d = values.len();
    let n = values[at.0][at.1];
    if n == 0 {
        return true;
    }
    let (r, c) = (at.0 as i64, at.1 as i64);
    for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let (nr, nc) = (r + dr * n as i64, c + dc * n as i64);
        if nr < 0 || nc < 0 || nr >= d as i64 || nc >= d as i64 {
            continue;
        }
        let next = (nr as usize, nc as usize);
        if visited[next.0][next.1] {
            continue;
        }
        visited[next.0][next.1] = true;
        if seed_recursive(values, next, visited) {
            return true;
        }
    }
    false
}

/// A visited grid with only `start` marked.
fn visited(d: usize, start: (usize, usize)) -> Vec<Vec<bool>> {
    let mut grid = vec![vec![false; d]; d];
    grid[start.0][start.1] = true;
    grid
}

/// A random legal board drawn independently of the product's generator.
fn random_values(d: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<Vec<usize>> {
    let mut values: Vec<Vec<usize>> = (0..d)
        .map(|_| (0..d).map(|_| rng.random_range(1..d)).collect())
        .collect();
    values[rng.random_range(0..d)][rng.random_range(0..d)] = 0;
    values
}

fn text(values: &[Vec<usize>]) -> String {
    values
        .iter()
        .map(|row| {
            row.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

#[test]
fn three_methods_agree_on_ten_thousand_boards_of_every_size() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let budget = MemoryBudget::new(1 << 30);
    let mut verdicts = Verdicts::default();
    let mut solvable = 0;
    for d in 5..=20usize {
        for _ in 0..10_000 {
            let values = random_values(d, &mut rng);
            let board = Board::parse(&text(&values), SizeRule::Seed).unwrap();
            let goal = board.goal();
            let square = |(r, c): (usize, usize)| r * d.next_power_of_two() + c;
            let starts: Vec<usize> = board.corners().iter().map(|&p| square(p)).collect();
            let fast = verdicts.reach_with_predecessors(&board, &starts, square(goal));
            assert_eq!(verdicts.reach(&board, &starts, square(goal)), fast);
            for (i, &corner) in board.corners().iter().enumerate() {
                let seed =
                    corner != goal && seed_recursive(&values, corner, &mut visited(d, corner));
                let bfs = corner != goal
                    && shortest_path(&board, starts[i], square(goal), budget)
                        .unwrap()
                        .is_some();
                assert_eq!(bfs, seed, "{d}: {values:?} from {corner:?}");
                if corner != goal {
                    assert_eq!(fast[i], seed, "{d}: {values:?} from {corner:?}");
                }
                solvable += seed as usize;
            }
        }
    }
    // About four boards in five are solvable from a corner at these sizes.
    assert!(solvable > 16 * 10_000 * 4 * 7 / 10, "{solvable}");
}

#[test]
fn paths_are_shortest_and_legal() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let budget = MemoryBudget::new(1 << 30);
    for d in [5, 9, 16, 20] {
        for _ in 0..200 {
            let values = random_values(d, &mut rng);
            let board = Board::parse(&text(&values), SizeRule::Seed).unwrap();
            for corner in solve(&board, None, budget).unwrap().corners {
                let Some(path) = corner.path else { continue };
                // Every step moves exactly the value of its square, in a straight line.
                for w in path.windows(2) {
                    let ([r, c], [nr, nc]) = (w[0], w[1]);
                    let k = values[r][c];
                    assert!(
                        (r == nr && r.abs_diff(nr) == 0 && c.abs_diff(nc) == k)
                            || (c == nc && r.abs_diff(nr) == k)
                    );
                }
                assert_eq!(values[path.last().unwrap()[0]][path.last().unwrap()[1]], 0);
                // No shorter path: a plain breadth-first search over (row, col) agrees on the length.
                let mut dist = vec![vec![usize::MAX; d]; d];
                let mut queue =
                    std::collections::VecDeque::from([(corner.start[0], corner.start[1])]);
                dist[corner.start[0]][corner.start[1]] = 0;
                while let Some((r, c)) = queue.pop_front() {
                    let k = values[r][c];
                    let moves = [
                        (r.checked_sub(k), Some(c)),
                        (Some(r + k), Some(c)),
                        (Some(r), Some(c + k)),
                        (Some(r), c.checked_sub(k)),
                    ];
                    for (nr, nc) in moves {
                        if let (Some(nr), Some(nc)) = (nr, nc) {
                            if k > 0 && nr < d && nc < d && dist[nr][nc] == usize::MAX {
                                dist[nr][nc] = dist[r][c] + 1;
                                queue.push_back((nr, nc));
                            }
                        }
                    }
                }
                let [gr, gc] = *path.last().unwrap();
                assert_eq!(dist[gr][gc], path.len() - 1);
            }
        }
    }
}

#[test]
fn hand_made_boards() {
    let budget = MemoryBudget::new(1 << 30);
    // Every square holds 1 but the goal in the middle: all corners reach it in 4 moves.
    let ones = "1 1 1 1 1\n1 1 1 1 1\n1 1 0 1 1\n1 1 1 1 1\n1 1 1 1 1\n";
    let r = solve(&Board::parse(ones, SizeRule::Seed).unwrap(), None, budget).unwrap();
    assert!(r.corners.iter().all(|c| c.moves == Some(4)));
    // All 4s around the goal: a corner's moves stay on the corners, so no corner is solvable.
    let fours = "4 4 4 4 4\n4 4 4 4 4\n4 4 0 4 4\n4 4 4 4 4\n4 4 4 4 4\n";
    let r = solve(&Board::parse(fours, SizeRule::Seed).unwrap(), None, budget).unwrap();
    assert!(r.corners.iter().all(|c| !c.solvable));
    // Only the top corners work (found by a separate search, checked here by the seed's method too).
    let some = "3 1 2 2 4\n2 4 4 2 2\n2 0 3 2 4\n4 4 4 3 2\n1 3 4 3 3\n";
    let values: Vec<Vec<usize>> = some
        .lines()
        .map(|l| l.split(' ').map(|t| t.parse().unwrap()).collect())
        .collect();
    let seed: Vec<bool> = [(0, 0), (0, 4), (4, 0), (4, 4)]
        .iter()
        .map(|&c| seed_recursive(&values, c, &mut visited(5, c)))
        .collect();
    assert_eq!(seed, vec![true, true, false, false]);
    let r = solve(&Board::parse(some, SizeRule::Seed).unwrap(), None, budget).unwrap();
    let verdicts: Vec<bool> = r.corners.iter().map(|c| c.solvable).collect();
    assert_eq!(verdicts, vec![true, true, false, false]);
    // The goal on a corner: that corner is the goal, the others are asked.
    let corner_goal = "0 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n";
    let r = solve(
        &Board::parse(corner_goal, SizeRule::Seed).unwrap(),
        None,
        budget,
    )
    .unwrap();
    assert!(r.corners[0].is_goal && !r.corners[0].solvable);
    assert_eq!(r.corners[3].moves, Some(8));
}

#[test]
fn generated_boards_have_the_asked_property() {
    let budget = MemoryBudget::new(1 << 30);
    for d in 5..=20 {
        let solvable = generate(d, d as u64, Wanted::Solvable, SizeRule::Seed).unwrap();
        assert!(solve(&solvable, None, budget)
            .unwrap()
            .corners
            .iter()
            .all(|c| c.solvable || c.is_goal));
        let unsolvable = generate(d, d as u64, Wanted::Unsolvable, SizeRule::Seed).unwrap();
        assert!(solve(&unsolvable, None, budget)
            .unwrap()
            .corners
            .iter()
            .all(|c| !c.solvable));
        assert_eq!(unsolvable.size(), d);
    }
    // A start on the goal is a path of one square; squares are laid out with a power-of-two stride.
    let board = generate(6, 3, Wanted::Any, SizeRule::Seed).unwrap();
    assert_eq!(shortest_path(&board, 0, 0, budget), Ok(Some(vec![0])));
    assert_eq!(board.states(), 6 * 8);
}

#[test]
fn boards_conform_to_the_puzzle_shape() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for d in 5..=20usize {
        for _ in 0..20 {
            let values = random_values(d, &mut rng);
            let board = Board::parse(&text(&values), SizeRule::Seed).unwrap();
            assert_eq!(conformance::predecessors(&board), Ok(()), "{values:?}");
        }
    }
}
