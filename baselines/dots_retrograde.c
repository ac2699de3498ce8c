/* Baseline for `ply dots solve`: Wilson's retrograde method, plain and single-threaded.
 * One byte per state; states from all edges drawn down to none; every edge tried in every state.
 * Build: gcc -O2 -o /tmp/dots_retrograde baselines/dots_retrograde.c
 * Run:   /tmp/dots_retrograde triangles 4      or      /tmp/dots_retrograde boxes 3 4
 * Prints the value of the empty board for the first player, and the time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int n_edges, n_cells;
static int ea[64], eb[64];              /* the dots of each edge */
static uint64_t cell_mask[128];          /* the edges of each cell */

static int edge_of(int a, int b) {
    for (int e = 0; e < n_edges; e++)
        if ((ea[e] == a && eb[e] == b) || (ea[e] == b && eb[e] == a)) return e;
    fprintf(stderr, "no edge %d-%d\n", a, b);
    exit(2);
}

static void add_edge(int a, int b) { ea[n_edges] = a; eb[n_edges] = b; n_edges++; }

static void triangles(int size) {
#define DOT(r, c) ((r) * ((r) + 1) / 2 + (c))
    for (int r = 0; r <= size; r++)
        for (int c = 0; c <= r; c++) {
            if (c < r) add_edge(DOT(r, c), DOT(r, c + 1));
            if (r < size) { add_edge(DOT(r, c), DOT(r + 1, c)); add_edge(DOT(r, c), DOT(r + 1, c + 1)); }
        }
    for (int r = 0; r < size; r++)
        for (int c = 0; c <= r; c++) {
            cell_mask[n_cells++] = (1ULL << edge_of(DOT(r, c), DOT(r + 1, c))) |
                                   (1ULL << edge_of(DOT(r, c), DOT(r + 1, c + 1))) |
                                   (1ULL << edge_of(DOT(r + 1, c), DOT(r + 1, c + 1)));
            if (c < r)
                cell_mask[n_cells++] = (1ULL << edge_of(DOT(r, c), DOT(r, c + 1))) |
                                       (1ULL << edge_of(DOT(r, c), DOT(r + 1, c + 1))) |
                                       (1ULL << edge_of(DOT(r, c + 1), DOT(r + 1, c + 1)));
        }
#undef DOT
}

static void boxes(int rows, int cols) {
#define DOT(r, c) ((r) * (cols + 1) + (c))
    for (int r = 0; r <= rows; r++)
        for (int c = 0; c <= cols; c++) {
            if (c < cols) add_edge(DOT(r, c), DOT(r, c + 1));
            if (r < rows) add_edge(DOT(r, c), DOT(r + 1, c));
        }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            cell_mask[n_cells++] = (1ULL << edge_of(DOT(r, c), DOT(r, c + 1))) |
                                   (1ULL << edge_of(DOT(r + 1, c), DOT(r + 1, c + 1))) |
                                   (1ULL << edge_of(DOT(r, c), DOT(r + 1, c))) |
                                   (1ULL << edge_of(DOT(r, c + 1), DOT(r + 1, c + 1)));
#undef DOT
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "triangles") == 0) triangles(atoi(argv[2]));
    else if (argc >= 4 && strcmp(argv[1], "boxes") == 0) boxes(atoi(argv[2]), atoi(argv[3]));
    else { fprintf(stderr, "usage: triangles N | boxes R C\n"); return 2; }
    /* For each edge, the cells it borders. */
    int cells_of[64][2], count_of[64] = {0};
    for (int k = 0; k < n_cells; k++)
        for (int e = 0; e < n_edges; e++)
            if (cell_mask[k] >> e & 1) cells_of[e][count_of[e]++] = k;
    uint64_t states = 1ULL << n_edges;
    int8_t *value = malloc(states);
    if (!value) { fprintf(stderr, "out of memory\n"); return 2; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t s = states; s-- > 0;) {
        int best = -128;
        for (int e = 0; e < n_edges; e++) {
            if (s >> e & 1) continue;
            uint64_t child = s | (1ULL << e);
            int made = 0;
            for (int i = 0; i < count_of[e]; i++)
                if ((child & cell_mask[cells_of[e][i]]) == cell_mask[cells_of[e][i]]) made++;
            int v = made > 0 ? made + value[child] : -value[child];
            if (v > best) best = v;
        }
        value[s] = best == -128 ? 0 : (int8_t)best;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("value %d, %llu states in %.3f s\n", value[0], (unsigned long long)states, seconds);
    return 0;
}
