// Models of Ipopt's ScalableProblems, written here from their mathematics
// (models/boundary_control_2d_tnlp.hpp: MBndryCntrl1;
// models/boundary_control_neumann_2d_tnlp.hpp: MBndryCntrl5 to 8;
// models/boundary_control_3d_tnlp.hpp: MBndryCntrl_3D;
// models/boundary_control_3d_sin_tnlp.hpp: MBndryCntrl_3Dsin;
// models/distributed_control_2d_tnlp.hpp: MDistCntrl1;
// models/distributed_control_neumann_2d_tnlp.hpp: MDistCntrl4;
// models/parabolic_control_tnlp.hpp: MPara5_1, MPara5_2_1 to 3;
// models/luksan_vlcek4_tnlp.hpp: LukVlE4, and LukVlI4 with its rows
// -1 <= c <= 0), one solve per process, QPM or Ipopt at
// their defaults with tol set. One CSV row:
//
//   ipopt_scalable --model boundary2d|boundaryneumann2d[-6|-7|-8]|boundary3d|boundary3dsin|distributed2d|
//                          neumann2d|parabolic[-5.2.1|-5.2.2|-5.2.3]|lukvle4|lukvli4 --size N --solver qpm|ipopt
//                  [--tol T] [--cpu S] [--option name=value]... [--header]
//
// --size is the original's N: points per dimension (steps in x and t for
// parabolic), or N of n = N + 2.
#include <cstdio>
#include <cstdlib>
#include <optional>
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

// MBndryCntrl5 to 8: boundaryneumann2d and boundaryneumann2d-6, -7, -8; 0 for another name.
int BoundaryNeumannExample(const std::string& name) {
  if (name == "boundaryneumann2d") return 5;
  const std::string stem = "boundaryneumann2d-";
  if (name.size() != stem.size() + 1 || name.compare(0, stem.size(), stem) != 0) return 0;
  const int example = name.back() - '0';
  return BoundaryControlNeumann2dTnlp::ValidExample(example) && example != 5 ? example : 0;
}

// MPara5_1 and MPara5_2_1 to 3: parabolic and parabolic-5.2.1, -5.2.2, -5.2.3.
std::optional<ParabolicControlTnlp::Example> ParabolicExample(const std::string& name) {
  using E = ParabolicControlTnlp::Example;
  if (name == "parabolic") return E::k5_1;
  if (name == "parabolic-5.2.1") return E::k5_2_1;
  if (name == "parabolic-5.2.2") return E::k5_2_2;
  if (name == "parabolic-5.2.3") return E::k5_2_3;
  return std::nullopt;
}

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
  } else if (BoundaryNeumannExample(name) > 0 && size >= 1) {
    auto* b = new BoundaryControlNeumann2dTnlp(size, BoundaryNeumannExample(name));
    model = b, n = b->variables(), m = b->rows();
  } else if (ParabolicExample(name) && size >= 3) {
    auto* p = new ParabolicControlTnlp(size, *ParabolicExample(name));
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
                 "--model boundary2d, boundaryneumann2d[-6|-7|-8], boundary3d, boundary3dsin, distributed2d or "
                 "neumann2d (--size >= 1), parabolic[-5.2.1|-5.2.2|-5.2.3] (--size >= 3), or lukvle4, "
                 "lukvli4 (--size >= 6)\n");
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
