// Models of Ipopt's ScalableProblems, written here from their mathematics
// (models/boundary_control_3d_tnlp.hpp: MBndryCntrl_3D;
// models/distributed_control_2d_tnlp.hpp: MDistCntrl1;
// models/luksan_vlcek4_tnlp.hpp: LukVlE4, and LukVlI4 with its rows
// -1 <= c <= 0), one solve per process, QPM or Ipopt at
// their defaults with tol set. One CSV row:
//
//   ipopt_scalable --model boundary3d|distributed2d|lukvle4|lukvli4 --size N --solver qpm|ipopt
//                  [--tol T] [--cpu S] [--option name=value]... [--header]
//
// --size is the original's N: points per dimension, or N of n = N + 2.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "peak_memory.hpp"

#include "boundary_control_3d_tnlp.hpp"
#include "distributed_control_2d_tnlp.hpp"
#include "luksan_vlcek4_tnlp.hpp"

namespace {

constexpr const char* kHeader =
    "model,size,n,m,solver,options,status,f,max_violation,kkt,wall_s,peak_mb,iterations,"
    "hess_products,factorizations,preconditioner";

}  // namespace

int main(int argc, char** argv) {
  int size = 20;
  std::string name = "boundary3d";
  double tol = 1e-8, cpu = 60.0;
  std::string solver = "qpm", option_text;
  std::vector<std::pair<std::string, std::string>> options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() { return std::string(i + 1 < argc ? argv[++i] : ""); };
    if (arg == "--model") name = next();
    else if (arg == "--size") size = std::atoi(next().c_str());
    else if (arg == "--solver") solver = next();
    else if (arg == "--tol") tol = std::atof(next().c_str());
    else if (arg == "--cpu") cpu = std::atof(next().c_str());
    else if (arg == "--option") {
      const std::string o = next();
      const size_t eq = o.find('=');
      if (eq == std::string::npos) { std::fprintf(stderr, "--option wants name=value\n"); return 2; }
      options.emplace_back(o.substr(0, eq), o.substr(eq + 1));
      option_text += (option_text.empty() ? "" : " ") + o;
    }
    else if (arg == "--header") { std::printf("%s\n", kHeader); return 0; }
    else { std::fprintf(stderr, "unknown argument %s\n", arg.c_str()); return 2; }
  }
  Ipopt::SmartPtr<RecordingTnlp> model;
  int n = 0, m = 0;
  if (name == "boundary3d" && size >= 1) {
    auto* b = new BoundaryControl3dTnlp(size);
    model = b, n = b->variables(), m = b->rows();
  } else if (name == "distributed2d" && size >= 1) {
    auto* d = new DistributedControl2dTnlp(size);
    model = d, n = d->variables(), m = d->rows();
  } else if ((name == "lukvle4" || name == "lukvli4") && size >= 6) {
    auto* l = new LuksanVlcek4Tnlp(size, name == "lukvli4");
    model = l, n = l->variables(), m = l->rows();
  } else {
    std::fprintf(stderr, "--model boundary3d or distributed2d (--size >= 1), or lukvle4, lukvli4 (--size >= 6)\n");
    return 2;
  }
  const bool is_qpm = solver == "qpm";
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app;
  if (is_qpm) app = new qpm::QpmApplication();
  else app = IpoptApplicationFactory();
  bool options_ok = true;
  auto set = [&](Ipopt::OptionsList& o) {
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("sb", "yes");
    o.SetNumericValue("tol", tol);
    o.SetNumericValue("max_cpu_time", cpu);
    for (const auto& [name, value] : options) options_ok = options_ok && qpm::SetOptionFromText(o, name, value);
  };
  const qpm::SolverRun run = qpm::RunSolver(app, Ipopt::SmartPtr<Ipopt::TNLP>(Ipopt::GetRawPtr(model)),
                                            solver, set);
  if (!options_ok) {
    std::fprintf(stderr, "cannot set an --option\n");
    return 2;
  }
  long products = 0, factorizations = 0;
  std::string preconditioner = "-";
  if (is_qpm) {
    const qpm::Summary& s = static_cast<qpm::QpmApplication*>(Ipopt::GetRawPtr(app))->LastSummary();
    products = s.hess_products, factorizations = s.factorizations;
    if (!s.preconditioner.empty()) preconditioner = s.preconditioner;
  }
  std::printf("%s,%d,%d,%d,%s,%s,%s,%.10g,%.3e,%.3e,%.3f,%.1f,%d,%ld,%ld,%s\n", name.c_str(), size,
              n, m, solver.c_str(),
              option_text.empty() ? "-" : option_text.c_str(), qpm::StatusName(run.status), run.f,
              run.violation_max, run.kkt_residual, run.wall_time, PeakMegabytes(), run.iterations,
              products, factorizations, preconditioner.c_str());
  return 0;
}
