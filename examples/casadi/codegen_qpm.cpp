// Solves a CasADi model compiled from generate_dependencies output with QPM:
//   codegen_qpm <nlp.so> [p0 p1 ...]
// Bounds here are those of test/casadi/sparse_model.c (g0 = 0, g1 <= 1);
// adapt them to your model.
#include <cstdio>
#include <cstdlib>
#include <limits>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <nlp.so> [p...]\n", argv[0]);
    return 2;
  }
  const double inf = std::numeric_limits<double>::infinity();
  qpm::CasadiNlpInputs in;
  in.lbg = {0.0, -inf};
  in.ubg = {0.0, 1.0};
  for (int i = 2; i < argc; ++i) in.p.push_back(std::atof(argv[i]));
  Ipopt::SmartPtr<qpm::CasadiCodegenTnlp> nlp = new qpm::CasadiCodegenTnlp(argv[1], in);

  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetNumericValue("tol", 1e-7);
  app->Options()->SetStringValue("qpm_inner_solver", "trust-region");
  if (app->Initialize() != Ipopt::Solve_Succeeded) return 1;
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(Ipopt::GetRawPtr(nlp));

  const qpm::CasadiNlpResult& r = nlp->Result();
  std::printf("status %s, f = %.10g, x =", qpm::StatusName(status), r.f);
  for (double xi : r.x) std::printf(" %.8g", xi);
  std::printf("\n");
  return status == Ipopt::Solve_Succeeded ? 0 : 1;
}
