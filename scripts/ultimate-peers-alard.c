// A C ABI driver for Tom Alard's ultimate tic-tac-toe engine (https://github.com/TomAlard/UTTT_player,
// a CodinGame bot in C: 81-bit marks per player in a 128-bit word, a 9-bit meta-board per player,
// an SSE win check), written for this project's peer benchmark (peers/src/ultimate.rs). His
// source is not part of this repository: peers/build.rs compiles this file with his
// src/board/{board,player_bitboard,square}.c and src/misc/util.c when UTTT_ALARD_SRC names a
// copy of his tree (scripts/ultimate-peers does that).
//
// Every loop runs on his side of the ABI, so no call crosses it per move. The moves are his
// public board API: `generateMoves` (the legal moves as a list), `makeTemporaryMove`,
// `getWinnerAfterMove` and `state.winner`.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board/board.h"

// A fresh board: the empty position, X (his PLAYER1) to move, any board. His createBoard also
// allocates his 512 MB search-node pool, which none of this uses.
static void empty_board(Board* b) {
  memset(b, 0, sizeof *b);
  b->state.currentPlayer = PLAYER1;
  b->state.currentBoard = ANY_BOARD;
  b->state.winner = NONE;
}

// xorshift64: the same generator and pick the per-move benchmarks use (peers/src/moves.rs):
// one 32-bit draw times the number of legal moves, the high half.
static inline uint32_t next32(uint64_t* s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return (uint32_t)(x >> 32);
}

// `games` random games from the empty board: each move uniform among `generateMoves`' list.
// Returns the sum of the outcome codes (1 X won, 2 O won, 3 drawn) and 4 times the plies.
uint64_t uttt_alard_playouts(uint64_t games, uint64_t seed) {
  uint64_t s = seed | 1, sum = 0;
  Square moves[TOTAL_SMALL_SQUARES];
  for (uint64_t g = 0; g < games; g++) {
    Board b;
    empty_board(&b);
    while (b.state.winner == NONE) {
      int8_t n = generateMoves(&b, moves);
      uint32_t k = (uint32_t)(((uint64_t)next32(&s) * (uint64_t)n) >> 32);
      makeTemporaryMove(&b, moves[k]);
    }
    sum += b.state.winner + 4 * (uint64_t)b.state.ply;
  }
  return sum;
}

static Board* loaded;
static size_t loaded_count;
static Square* picks;

// Replays games given as moves (9 * board + cell), 255 ending each game, and keeps the board
// before every move. `counts` holds the number of legal moves of each of those positions (ours)
// and `outcomes` each game's outcome (ours: 1 X won, 2 O won, 3 drawn). Returns the number of
// positions, or -(i + 1) when his legal-move count at position i differs from ours, or
// -(1000000000 + g) when game g ends differently, except that where ours is drawn (every board
// closed, no line of won boards) his rule may give the game to the player with more boards.
// `*by_count` receives the number of games decided that way.
long uttt_alard_load(const uint8_t* game_moves, size_t len, const uint8_t* counts,
                     const uint8_t* outcomes, long* by_count) {
  free(loaded);
  loaded = malloc((len + 1) * sizeof(Board));
  loaded_count = 0;
  *by_count = 0;
  Board b;
  empty_board(&b);
  Square moves[TOTAL_SMALL_SQUARES];
  size_t game = 0;
  for (size_t i = 0; i < len; i++) {
    if (game_moves[i] == 255) {
      uint8_t ours = outcomes[game];
      if (b.state.winner == NONE) return -(1000000000L + (long)game);
      if (b.state.winner != ours) {
        if (ours != DRAW) return -(1000000000L + (long)game);
        ++*by_count;
      }
      game++;
      empty_board(&b);
      continue;
    }
    if (generateMoves(&b, moves) != counts[loaded_count]) return -((long)loaded_count + 1);
    loaded[loaded_count++] = b;
    Square sq = {game_moves[i] / 9, game_moves[i] % 9};
    makeTemporaryMove(&b, sq);
  }
  return (long)loaded_count;
}

// One move per loaded position (9 * board + cell) for `uttt_alard_play_status`.
void uttt_alard_set_picks(const uint8_t* moves, size_t n) {
  free(picks);
  picks = malloc((n + 1) * sizeof(Square));
  for (size_t i = 0; i < n; i++) {
    Square sq = {moves[i] / 9, moves[i] % 9};
    picks[i] = sq;
  }
}

// The legal moves of every loaded position, counted (his list, as his search builds it).
uint64_t uttt_alard_count_moves(void) {
  uint64_t sum = 0;
  Square moves[TOTAL_SMALL_SQUARES];
  for (size_t i = 0; i < loaded_count; i++) {
    Board b = loaded[i];
    __asm__ volatile("" : : "g"(&b) : "memory");
    sum += (uint64_t)generateMoves(&b, moves);
  }
  return sum;
}

// Play + status of one move per loaded position: his `getWinnerAfterMove` (copy the state,
// play, read the winner, restore).
uint64_t uttt_alard_play_status(void) {
  uint64_t sum = 0;
  for (size_t i = 0; i < loaded_count; i++) {
    Board b = loaded[i];
    __asm__ volatile("" : : "g"(&b) : "memory");
    sum += getWinnerAfterMove(&b, picks[i]);
  }
  return sum;
}

static uint64_t perft(Board* b, int depth) {
  if (b->state.winner != NONE) return depth == 0;
  if (depth == 0) return 1;
  Square moves[TOTAL_SMALL_SQUARES];
  int8_t n = generateMoves(b, moves);
  if (depth == 1) return (uint64_t)n;
  uint64_t total = 0;
  for (int8_t i = 0; i < n; i++) {
    State saved = b->state;
    makeTemporaryMove(b, moves[i]);
    total += perft(b, depth - 1);
    b->state = saved;
  }
  return total;
}

// The number of move sequences of length `depth` from the empty board (finished games stop).
uint64_t uttt_alard_perft(int depth) {
  Board b;
  empty_board(&b);
  return perft(&b, depth);
}
