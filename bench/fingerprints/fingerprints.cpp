// Behaviour fingerprints: one line per solve with the status, a hash of every
// intermediate_callback argument, and hashes of the final x, z_L, z_U,
// lambda and f, all as bits. Two builds that print the same lines ran the
// same method to the last bit; a refactoring is checked by diffing them.
//
//   fingerprints --library [--mode default|paper]   the model library (models/)
//   fingerprints --nl MODEL.nl [--mode ...]          one AMPL model (one per process)
//   ... [--inner trust-region|gradient-descent|lbfgs]  qpm_inner_solver
//
// Both at Ipopt's tol 1e-8 with nothing else set but the mode and
// max_cpu_time (a run that reaches a time limit is marked, not hashed:
// where it stops depends on the machine).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>
#ifdef QPM_FINGERPRINT_AMPL
#include <qpm/ampl/ampl_tnlp.hpp>
#endif

#include "forwarding_tnlp.hpp"
#include "model_library.hpp"

namespace {

using Ipopt::Index;
using Ipopt::Number;

struct Hash {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  void Bytes(const void* data, std::size_t size) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
  }
  void Add(double v) { Bytes(&v, sizeof v); }
  void Add(const Number* v, Index n) {
    if (v) Bytes(v, sizeof(Number) * static_cast<std::size_t>(n));
  }
};

class FingerprintTnlp : public qpm_test::ForwardingTnlp {
 public:
  using ForwardingTnlp::ForwardingTnlp;
  bool intermediate_callback(Ipopt::AlgorithmMode mode, Index iter, Number obj, Number inf_pr,
                             Number inf_du, Number mu, Number d_norm, Number reg, Number alpha_du,
                             Number alpha_pr, Index ls_trials, const Ipopt::IpoptData* data,
                             Ipopt::IpoptCalculatedQuantities* cq) override {
    ++callbacks;
    for (double v : {static_cast<double>(mode), static_cast<double>(iter), obj, inf_pr, inf_du, mu,
                     d_norm, reg, alpha_du, alpha_pr, static_cast<double>(ls_trials)}) {
      iterations.Add(v);
    }
    return ForwardingTnlp::intermediate_callback(mode, iter, obj, inf_pr, inf_du, mu, d_norm, reg,
                                                 alpha_du, alpha_pr, ls_trials, data, cq);
  }
  void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number* z_l,
                         const Number* z_u, Index m, const Number* g, const Number* lambda,
                         Number obj, const Ipopt::IpoptData* data,
                         Ipopt::IpoptCalculatedQuantities* cq) override {
    final_status = status;
    solution.Add(x, n), solution.Add(z_l, n), solution.Add(z_u, n);
    solution.Add(g, m), solution.Add(lambda, m), solution.Add(obj);
    f = obj;
    ForwardingTnlp::finalize_solution(status, n, x, z_l, z_u, m, g, lambda, obj, data, cq);
  }
  long callbacks = 0;
  Hash iterations, solution;
  int final_status = -1;
  double f = 0.0;
};

void Run(const std::string& name, Ipopt::SmartPtr<Ipopt::TNLP> model, const std::string& mode,
         const std::string& inner) {
  Ipopt::SmartPtr<FingerprintTnlp> tnlp = new FingerprintTnlp(model);
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetNumericValue("tol", 1e-8);
  app->Options()->SetNumericValue("max_cpu_time", 60.0);
  if (mode != "default") app->Options()->SetStringValue("qpm_mode", mode);
  if (!inner.empty()) app->Options()->SetStringValue("qpm_inner_solver", inner);
  Ipopt::ApplicationReturnStatus status = app->Initialize();
  if (status == Ipopt::Solve_Succeeded) status = app->OptimizeTNLP(Ipopt::GetRawPtr(tnlp));
  const bool timed = status == Ipopt::Maximum_CpuTime_Exceeded;  // wall time maps to it too
  if (timed) {
    std::printf("%s %s%s status %d time-limited\n", name.c_str(), mode.c_str(), inner.empty() ? "" : ("/" + inner).c_str(), status);
    return;
  }
  std::printf("%s %s%s status %d final %d callbacks %ld iterations %016llx solution %016llx f %a\n",
              name.c_str(), mode.c_str(), inner.empty() ? "" : ("/" + inner).c_str(), status, tnlp->final_status, tnlp->callbacks,
              static_cast<unsigned long long>(tnlp->iterations.h),
              static_cast<unsigned long long>(tnlp->solution.h), tnlp->f);
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = "default", nl, inner;
  bool library = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--library")) library = true;
    else if (!std::strcmp(argv[i], "--mode") && i + 1 < argc) mode = argv[++i];
    else if (!std::strcmp(argv[i], "--nl") && i + 1 < argc) nl = argv[++i];
    else if (!std::strcmp(argv[i], "--inner") && i + 1 < argc) inner = argv[++i];
    else {
      std::fprintf(stderr, "usage: fingerprints --library | --nl MODEL.nl [--mode default|paper] [--inner SOLVER]\n");
      return 2;
    }
  }
  if (library) {
    for (const qpm_test::Model& model : qpm_test::AllModels()) {
      Run(model.name, new qpm_test::ModelTnlp(model), mode, inner);
    }
    return 0;
  }
#ifdef QPM_FINGERPRINT_AMPL
  if (!nl.empty()) {
    std::string error;
    Ipopt::SmartPtr<qpm::AmplTnlp> tnlp = qpm::AmplTnlp::Read(nl, &error);
    if (Ipopt::IsNull(tnlp)) {
      std::fprintf(stderr, "%s: %s\n", nl.c_str(), error.c_str());
      return 1;
    }
    std::string name = nl.substr(nl.find_last_of('/') + 1);
    Run(name, Ipopt::GetRawPtr(tnlp), mode, inner);
    return 0;
  }
#endif
  std::fprintf(stderr, "usage: fingerprints --library | --nl MODEL.nl [--mode default|paper] [--inner SOLVER]\n");
  return 2;
}
