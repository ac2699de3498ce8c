//! An independent solver of Number Solitaire, nothing from the product: every game the player could
//! choose (exhaustive, for short boards), and the original program's O(N·K) table with the fewest
//! throws among the best games (for long ones).

/// Every game the player could choose: (total, throws) of each path from 0 to the last square.
pub fn all_paths(values: &[i64], faces: usize) -> Vec<(i128, usize, Vec<usize>)> {
    fn walk(
        v: &[i64],
        k: usize,
        at: usize,
        path: &mut Vec<usize>,
        out: &mut Vec<(i128, usize, Vec<usize>)>,
    ) {
        if at == v.len() - 1 {
            let total = path.iter().map(|&i| v[i] as i128).sum();
            out.push((total, path.len() - 1, path.clone()));
            return;
        }
        for step in 1..=k.min(v.len() - 1 - at) {
            path.push(at + step);
            walk(v, k, at + step, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(values, faces, 0, &mut vec![0], &mut out);
    out
}

/// Best result and, among the best games, the fewest throws: the original program's O(N·K) table.
pub fn best_and_fewest_throws(values: &[i64], die: usize) -> (i64, u64) {
    let mut best = vec![(i64::MIN, 0u64); values.len()];
    best[0] = (values[0], 0);
    for i in 1..values.len() {
        let mut here = (i64::MIN, u64::MAX);
        for (total, throws) in &best[i.saturating_sub(die)..i] {
            let candidate = (total + values[i], throws + 1);
            if candidate.0 > here.0 || (candidate.0 == here.0 && candidate.1 < here.1) {
                here = candidate;
            }
        }
        best[i] = here;
    }
    best[values.len() - 1]
}
