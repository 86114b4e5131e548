// Build-time generator (only when CasADi is found): writes
// <outdir>/generated_nlp.c with nlpsol(...).generate_dependencies for the
// model of sparse_model.c, so that the test can load real CasADi output.
// The nlpsol plugin is qpm's own (CASADIPATH points at it).
#include <unistd.h>

#include <casadi/casadi.hpp>

int main(int argc, char** argv) {
  if (argc != 2 || chdir(argv[1]) != 0) return 1;
  casadi::SX x = casadi::SX::sym("x", 3), p = casadi::SX::sym("p", 2);
  casadi::SX f = casadi::SX::sq(x(0) - p(0)) + casadi::SX::sq(x(1) - p(1)) + casadi::SX::sq(x(2));
  casadi::SX g = casadi::SX::vertcat({x(0) * x(1) - x(2), x(0) + x(1)});
  casadi::Function solver = casadi::nlpsol(
      "S", "qpm", casadi::SXDict{{"x", x}, {"p", p}, {"f", f}, {"g", g}},
      casadi::Dict{{"print_time", false}});
  solver.generate_dependencies("generated_nlp.c");
  return 0;
}
