// A timing driver for Pascal Pons' Connect Four solver, written for this project's benchmark
// (scripts/bench-connect4). It is compiled against his public source, which is not part of this
// repository: `g++ -O3 -march=native -I PONS_DIR pons-driver.cpp PONS_DIR/Solver.cpp`.
//
// For each line of standard input (a move sequence of column digits 1-7) it clears the
// transposition table (untimed, as in his tutorial's benchmark), solves the position once on
// this thread, and prints: sequence, score, nodes, microseconds of this thread's CPU time. `-w` solves weakly.
#include <time.h>

#include <cstring>
#include <iostream>
#include <string>

#include "Solver.hpp"

using namespace GameSolver::Connect4;

int main(int argc, char** argv) {
  bool weak = argc > 1 && std::strcmp(argv[1], "-w") == 0;
  Solver* solver = new Solver();
  std::string line;
  for (int l = 1; std::getline(std::cin, line); l++) {
    Position p;
    if (p.play(line) != line.size()) {
      std::cerr << "line " << l << ": invalid sequence " << line << std::endl;
      std::cout << std::endl;
      continue;
    }
    solver->reset();
    timespec t0, t1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    int score = solver->solve(p, weak);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    double micros = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
    std::cout << std::fixed;
    std::cout.precision(2);
    std::cout << line << ' ' << score << ' ' << solver->getNodeCount() << ' ' << micros
              << std::endl;
  }
  delete solver;
}
