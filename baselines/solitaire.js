// Baseline for `ply solitaire`: the seed's JavaScript algorithm (Jonatas Walker's solution, seed 000),
// unchanged, fed from a file of integers separated by white space or commas.
// Usage: node baselines/solitaire.js FILE
const fs = require("fs");

function solution(A) {
  let result = [];

  result[0] = A[0];
  for (let i = 1; i < A.length; i++) {
    result[i] = -Infinity;
  }

  for (let i = 1; i < A.length; i++) {
    // Checking for highest number in batches of 6. Math.max(0, i - 6)
    for (let j = Math.max(0, i - 6); j < i; j++) {
      result[i] = Math.max(result[i], result[j] + A[i]);
    }
  }

  return result[result.length - 1];
}

const text = fs.readFileSync(process.argv[2], "utf8");
const A = text.split(/[\s,]+/).filter((t) => t.length > 0).map(Number);
console.log(solution(A));
