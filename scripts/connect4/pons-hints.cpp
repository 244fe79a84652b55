// A hint-latency driver for Pascal Pons' Connect Four solver, written for this project's
// benchmark (scripts/bench-connect4-hints). It is compiled against his public source, which is
// not part of this repository: `g++ -O3 -march=native -I PONS_DIR pons-hints.cpp PONS_DIR/Solver.cpp`.
//
// For each line of standard input (a move sequence of column digits 1-7, `-` for the empty
// board) it clears the transposition table (untimed), scores every move of the position with
// his `Solver::analyze` (no opening book: his is distributed apart from the source), and
// prints: sequence, stones, microseconds of this thread's CPU time, `search`, and the seven
// scores (`.` for a full column), the columns of tictactoe/examples/connect4_hints.rs.
#include <time.h>

#include <iostream>
#include <string>
#include <vector>

#include "Solver.hpp"

using namespace GameSolver::Connect4;

int main() {
  Solver* solver = new Solver();
  std::string line;
  for (int l = 1; std::getline(std::cin, line); l++) {
    std::string moves = line == "-" ? "" : line;
    Position p;
    if (p.play(moves) != moves.size()) {
      std::cerr << "line " << l << ": invalid sequence " << line << std::endl;
      return 1;
    }
    solver->reset();
    timespec t0, t1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    std::vector<int> scores = solver->analyze(p);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    double micros = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
    std::cout << std::fixed;
    std::cout.precision(1);
    std::cout << line << ' ' << p.nbMoves() << ' ' << micros << " search";
    for (int s : scores) {
      if (s == Solver::INVALID_MOVE) std::cout << " .";
      else std::cout << ' ' << s;
    }
    std::cout << std::endl;
  }
  delete solver;
}
