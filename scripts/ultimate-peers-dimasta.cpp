// A C ABI driver for DiMasta's ultimate tic-tac-toe engine (https://github.com/DiMasta/TicTacToe,
// TicTacToe/tic_tac_toe.cpp: a CodinGame bot in C++, a 9-bit set per player and small board,
// a 9-bit meta-board per player and one of full boards, 511-entry tables for wins and the
// empty cells of a board), written for this project's peer benchmark (peers/src/ultimate.rs).
// His source is not part of this repository: peers/build.rs compiles this file, which includes
// his tic_tac_toe.cpp, when UTTT_DIMASTA_SRC names a copy of his tree (scripts/ultimate-peers
// does that).
//
// REDIRECT_INPUT is defined before his file: his switch for local runs, which drops his
// CodinGame pragmas (`optimize("O3","unroll-loops",...)`, `target("avx")`, `arch=native`) so
// his code gets the build's flags like every other contender, and only changes his I/O and
// search loop otherwise, neither of which this uses. His `main` is renamed out of the way.
//
// Every loop runs on his side of the ABI, so no call crosses it per move. The moves are his
// public `Board` API: `getAllPossibleMoves` (the legal moves as a list), `playMove`,
// `getStatus`, a copy by the copy constructor, and his own playout `simulateRandomGame`. His
// `Board` has no free first move (his bot's first turn is handled outside it: the empty board
// sends the mover to board 0), so the driver lists the 81 moves of the empty board itself.
#define REDIRECT_INPUT
#define main dimasta_unused_main
#include "tic_tac_toe.cpp"
#undef main

#include <cstdint>
#include <cstdlib>

namespace {

// xorshift64: the same generator and pick the per-move benchmarks use (peers/src/moves.rs):
// one 32-bit draw times the number of legal moves, the high half.
inline uint32_t next32(uint64_t* s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return (uint32_t)(x >> 32);
}

// Our outcome codes: 1 X won, 2 O won, 3 drawn, 0 going on. His X is MY_PLAYER (index 0, who
// moves first on a fresh Board).
inline uint64_t code(BoardStatus s) {
  switch (s) {
    case BoardStatus::I_WON: return 1;
    case BoardStatus::OPPONENT_WON: return 2;
    case BoardStatus::DRAW: return 3;
    default: return 0;
  }
}

// The legal moves: his list, or all 81 cells on the empty board (`first`).
inline int legal(const Board& b, bool first, Coords (&moves)[ALL_SQUARES]) {
  if (first) {
    for (int i = 0; i < ALL_SQUARES; i++) moves[i] = BIG_BOARD_POSITIONS[i / 9][i % 9];
    return ALL_SQUARES;
  }
  int n = 0;
  b.getAllPossibleMoves(moves, n);
  return n;
}

inline Coords coords(uint8_t move) { return BIG_BOARD_POSITIONS[move / 9][move % 9]; }

Board* loaded;
bool* loaded_first;
size_t loaded_count;
Coords* picks;

uint64_t perft(const Board& b, bool first, int depth) {
  if (b.getStatus() != BoardStatus::IN_PROGRESS) return depth == 0;
  if (depth == 0) return 1;
  Coords moves[ALL_SQUARES];
  int n = legal(b, first, moves);
  if (depth == 1) return (uint64_t)n;
  uint64_t total = 0;
  for (int i = 0; i < n; i++) {
    Board child(b);
    child.playMove(moves[i]);
    total += perft(child, false, depth - 1);
  }
  return total;
}

}  // namespace

extern "C" {

// `games` random games from the empty board: each move uniform among `getAllPossibleMoves`'
// list. Returns the sum of the outcome codes and 4 times the plies.
uint64_t uttt_dimasta_playouts(uint64_t games, uint64_t seed) {
  uint64_t s = seed | 1, sum = 0;
  Coords moves[ALL_SQUARES];
  for (uint64_t g = 0; g < games; g++) {
    Board b;
    uint64_t plies = 0;
    while (b.getStatus() == BoardStatus::IN_PROGRESS) {
      int n = legal(b, plies == 0, moves);
      uint32_t k = (uint32_t)(((uint64_t)next32(&s) * (uint64_t)n) >> 32);
      b.playMove(moves[k]);
      plies++;
    }
    sum += code(b.getStatus()) + 4 * plies;
  }
  return sum;
}

// `games` games of his own playout `simulateRandomGame` after a first move uniform among the
// 81 (his playout picks an open board at random when the mover chooses, then a cell: not
// uniform among the legal moves), with his generator `fast_rand` seeded by `seed`. Returns the
// sum of his results (0 X won, 1 O won, -1 drawn) plus 2 a game.
uint64_t uttt_dimasta_own_playouts(uint64_t games, uint64_t seed) {
  uint64_t s = seed | 1, sum = 0;
  fast_srand((int)seed);
  for (uint64_t g = 0; g < games; g++) {
    Board b;
    b.playMove(BIG_BOARD_POSITION_FROM_IDX[((uint64_t)next32(&s) * ALL_SQUARES) >> 32]);
    sum += (uint64_t)(b.simulateRandomGame() + 2);
  }
  return sum;
}

// Replays games given as moves (9 * board + cell), 255 ending each game, and keeps the board
// before every move. `counts` holds the number of legal moves of each of those positions (ours)
// and `outcomes` each game's outcome (ours: 1 X won, 2 O won, 3 drawn). Returns the number of
// positions, or -(i + 1) when his legal-move count at position i differs from ours, or
// -(1000000000 + g) when game g ends differently, except that where ours is drawn (every board
// closed, no line of won boards) his rule may give the game to the player with more boards.
// `*by_count` receives the number of games decided that way.
long uttt_dimasta_load(const uint8_t* game_moves, size_t len, const uint8_t* counts,
                       const uint8_t* outcomes, long* by_count) {
  delete[] loaded;
  delete[] loaded_first;
  loaded = new Board[len + 1];
  loaded_first = new bool[len + 1];
  loaded_count = 0;
  *by_count = 0;
  Board b;
  bool first = true;
  Coords moves[ALL_SQUARES];
  size_t game = 0;
  for (size_t i = 0; i < len; i++) {
    if (game_moves[i] == 255) {
      uint64_t ours = outcomes[game], his = code(b.getStatus());
      if (his == 0) return -(1000000000L + (long)game);
      if (his != ours) {
        if (ours != 3) return -(1000000000L + (long)game);
        ++*by_count;
      }
      game++;
      b = Board();
      first = true;
      continue;
    }
    if (b.getStatus() != BoardStatus::IN_PROGRESS ||
        legal(b, first, moves) != counts[loaded_count])
      return -((long)loaded_count + 1);
    loaded_first[loaded_count] = first;
    loaded[loaded_count++] = b;
    b.playMove(coords(game_moves[i]));
    first = false;
  }
  return (long)loaded_count;
}

// One move per loaded position (9 * board + cell) for `uttt_dimasta_play_status`.
void uttt_dimasta_set_picks(const uint8_t* moves, size_t n) {
  delete[] picks;
  picks = new Coords[n + 1];
  for (size_t i = 0; i < n; i++) picks[i] = coords(moves[i]);
}

// The legal moves of every loaded position, counted (his list, as his search builds it).
uint64_t uttt_dimasta_count_moves(void) {
  uint64_t sum = 0;
  Coords moves[ALL_SQUARES];
  for (size_t i = 0; i < loaded_count; i++) {
    Board b(loaded[i]);
    __asm__ volatile("" : : "g"(&b) : "memory");
    sum += (uint64_t)legal(b, loaded_first[i], moves);
  }
  return sum;
}

// Play + status of one move per loaded position: a copy, `playMove`, `getStatus` (his status
// summed as it is, without our code's switch: the Rust rows hand theirs to black_box as it is,
// Alard's sums his winner).
uint64_t uttt_dimasta_play_status(void) {
  uint64_t sum = 0;
  for (size_t i = 0; i < loaded_count; i++) {
    Board b(loaded[i]);
    __asm__ volatile("" : : "g"(&b) : "memory");
    b.playMove(picks[i]);
    sum += (uint64_t)b.getStatus();
  }
  return sum;
}

// The number of move sequences of length `depth` from the empty board (finished games stop).
uint64_t uttt_dimasta_perft(int depth) { return perft(Board(), true, depth); }

}  // extern "C"
