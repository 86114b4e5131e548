// Elliptic distributed control with control bounds (models/pde_control_tnlp.hpp)
// in 2D or 3D on N points per dimension, one solve per process (its peak RSS
// is its own), QPM or Ipopt at their defaults with tol set. One CSV row:
//
//   pde_control --dim 2|3 --points N --solver qpm|ipopt [--tol T] [--cpu S]
//               [--option name=value]... [--header]
//
// --option sets one more solver option (the comparison runs of
// bench/pde_control/run.sh use it for qpm_preconditioner).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "one_solve.hpp"
#include "peak_memory.hpp"

#include "pde_control_tnlp.hpp"

namespace {

constexpr const char* kHeader =
    "dim,points,n,m,solver,options,status,f,max_violation,kkt,wall_s,peak_mb,iterations,"
    "hess_products,factorizations,preconditioner";

}  // namespace

int main(int argc, char** argv) {
  int dim = 2, points = 32;
  bench::SolveSettings settings;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() { return std::string(i + 1 < argc ? argv[++i] : ""); };
    if (arg == "--dim") dim = std::atoi(next().c_str());
    else if (arg == "--points") points = std::atoi(next().c_str());
    else if (arg == "--header") { std::printf("%s\n", kHeader); return 0; }
    else {
      const bench::Argument read = bench::ReadSolveArgument(arg, next, &settings);
      if (read == bench::Argument::kBad) return 2;
      if (read == bench::Argument::kOther) { std::fprintf(stderr, "unknown argument %s\n", arg.c_str()); return 2; }
    }
  }
  if ((dim != 2 && dim != 3) || points < 2) {
    std::fprintf(stderr, "--dim must be 2 or 3 and --points at least 2\n");
    return 2;
  }
  Ipopt::SmartPtr<PdeControlTnlp> model = new PdeControlTnlp(dim, points);
  const bench::OneSolve one =
      bench::Solve(Ipopt::SmartPtr<Ipopt::TNLP>(Ipopt::GetRawPtr(model)), settings);
  if (!one.options_ok) {
    std::fprintf(stderr, "cannot set an --option\n");
    return 2;
  }
  const qpm::SolverRun& run = one.run;
  std::printf("%d,%d,%d,%d,%s,%s,%s,%.10g,%.3e,%.3e,%.3f,%.1f,%d,%ld,%ld,%s\n", dim, points,
              model->variables(), model->rows(), settings.solver.c_str(),
              settings.option_text.empty() ? "-" : settings.option_text.c_str(),
              qpm::StatusName(run.status), run.f,
              run.violation_max, run.kkt_residual, run.wall_time, PeakMegabytes(), run.iterations,
              one.products, one.factorizations, one.preconditioner.c_str());
  return 0;
}
