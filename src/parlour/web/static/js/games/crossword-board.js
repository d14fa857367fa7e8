// The crossword's board layout and tile values, for drawing only: the server scores every
// play. Must equal parlour.games.crossword.board (premium squares) and .tiles (values);
// tests/web/test_static.py checks it. T triple word, D double word, t triple letter,
// d double letter, . plain.

export const PREMIUMS = [
  "T..d...T...d..T",
  ".D...t...t...D.",
  "..D...d.d...D..",
  "d..D...d...D..d",
  "....D.....D....",
  ".t...t...t...t.",
  "..d...d.d...d..",
  "T..d...D...d..T",
  "..d...d.d...d..",
  ".t...t...t...t.",
  "....D.....D....",
  "d..D...d...D..d",
  "..D...d.d...D..",
  ".D...t...t...D.",
  "T..d...T...d..T",
];

export const PREMIUM_NAMES = { T: "triple word", D: "double word", t: "triple letter", d: "double letter" };

export const TILE_VALUES = { A: 1, B: 3, C: 3, D: 2, E: 1, F: 4, G: 2, H: 4, I: 1, J: 8, K: 5, L: 1, M: 3, N: 1, O: 1, P: 3, Q: 10, R: 1, S: 1, T: 1, U: 1, V: 4, W: 4, X: 8, Y: 4, Z: 10 };

export const COLUMNS = "ABCDEFGHIJKLMNO";
