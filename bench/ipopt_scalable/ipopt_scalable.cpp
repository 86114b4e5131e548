// Models of Ipopt's ScalableProblems, written here from their mathematics
// (models/boundary_control_2d_tnlp.hpp: MBndryCntrl1;
// models/boundary_control_neumann_2d_tnlp.hpp: MBndryCntrl5;
// models/boundary_control_3d_tnlp.hpp: MBndryCntrl_3D;
// models/boundary_control_3d_sin_tnlp.hpp: MBndryCntrl_3Dsin;
// models/distributed_control_2d_tnlp.hpp: MDistCntrl1;
// models/distributed_control_neumann_2d_tnlp.hpp: MDistCntrl4;
// models/parabolic_control_tnlp.hpp: MPara5_1;
// models/luksan_vlcek4_tnlp.hpp: LukVlE4, and LukVlI4 with its rows
// -1 <= c <= 0), one solve per process, QPM or Ipopt at
// their defaults with tol set. One CSV row:
//
//   ipopt_scalable --model boundary2d|boundaryneumann2d|boundary3d|boundary3dsin|distributed2d|neumann2d|
//                          parabolic|lukvle4|lukvli4 --size N --solver qpm|ipopt
//                  [--tol T] [--cpu S] [--option name=value]... [--header]
//
// --size is the original's N: points per dimension (steps in x and t for
// parabolic), or N of n = N + 2.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "one_solve.hpp"
#include "peak_memory.hpp"

#include "boundary_control_2d_tnlp.hpp"
#include "boundary_control_3d_sin_tnlp.hpp"
#include "boundary_control_3d_tnlp.hpp"
#include "boundary_control_neumann_2d_tnlp.hpp"
#include "distributed_control_2d_tnlp.hpp"
#include "distributed_control_neumann_2d_tnlp.hpp"
#include "luksan_vlcek4_tnlp.hpp"
#include "parabolic_control_tnlp.hpp"

namespace {

constexpr const char* kHeader =
    "model,size,n,m,solver,options,status,f,max_violation,kkt,wall_s,peak_mb,iterations,"
    "hess_products,factorizations,preconditioner";

}  // namespace

int main(int argc, char** argv) {
  int size = 20;
  std::string name = "boundary3d";
  bench::SolveSettings settings;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() { return std::string(i + 1 < argc ? argv[++i] : ""); };
    if (arg == "--model") name = next();
    else if (arg == "--size") size = std::atoi(next().c_str());
    else if (arg == "--header") { std::printf("%s\n", kHeader); return 0; }
    else {
      const bench::Argument read = bench::ReadSolveArgument(arg, next, &settings);
      if (read == bench::Argument::kBad) return 2;
      if (read == bench::Argument::kOther) { std::fprintf(stderr, "unknown argument %s\n", arg.c_str()); return 2; }
    }
  }
  Ipopt::SmartPtr<RecordingTnlp> model;
  int n = 0, m = 0;
  if (name == "boundary2d" && size >= 1) {
    auto* b = new BoundaryControl2dTnlp(size);
    model = b, n = b->variables(), m = b->rows();
  } else if (name == "boundaryneumann2d" && size >= 1) {
    auto* b = new BoundaryControlNeumann2dTnlp(size);
    model = b, n = b->variables(), m = b->rows();
  } else if (name == "parabolic" && size >= 3) {
    auto* p = new ParabolicControlTnlp(size);
    model = p, n = p->variables(), m = p->rows();
  } else if (name == "boundary3d" && size >= 1) {
    auto* b = new BoundaryControl3dTnlp(size);
    model = b, n = b->variables(), m = b->rows();
  } else if (name == "boundary3dsin" && size >= 1) {
    auto* b = new BoundaryControl3dSinTnlp(size);
    model = b, n = b->variables(), m = b->rows();
  } else if (name == "distributed2d" && size >= 1) {
    auto* d = new DistributedControl2dTnlp(size);
    model = d, n = d->variables(), m = d->rows();
  } else if (name == "neumann2d" && size >= 1) {
    auto* d = new DistributedControlNeumann2dTnlp(size);
    model = d, n = d->variables(), m = d->rows();
  } else if ((name == "lukvle4" || name == "lukvli4") && size >= 6) {
    auto* l = new LuksanVlcek4Tnlp(size, name == "lukvli4");
    model = l, n = l->variables(), m = l->rows();
  } else {
    std::fprintf(stderr,
                 "--model boundary2d, boundaryneumann2d, boundary3d, boundary3dsin, distributed2d or "
                 "neumann2d (--size >= 1), parabolic (--size >= 3), or lukvle4, lukvli4 (--size >= 6)\n");
    return 2;
  }
  const bench::OneSolve one =
      bench::Solve(Ipopt::SmartPtr<Ipopt::TNLP>(Ipopt::GetRawPtr(model)), settings);
  if (!one.options_ok) {
    std::fprintf(stderr, "cannot set an --option\n");
    return 2;
  }
  const qpm::SolverRun& run = one.run;
  std::printf("%s,%d,%d,%d,%s,%s,%s,%.10g,%.3e,%.3e,%.3f,%.1f,%d,%ld,%ld,%s\n", name.c_str(), size,
              n, m, settings.solver.c_str(),
              settings.option_text.empty() ? "-" : settings.option_text.c_str(),
              qpm::StatusName(run.status), run.f,
              run.violation_max, run.kkt_residual, run.wall_time, PeakMegabytes(), run.iterations,
              one.products, one.factorizations, one.preconditioner.c_str());
  return 0;
}
