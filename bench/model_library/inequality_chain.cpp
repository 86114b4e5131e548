// The same chain model (models/chain_tnlp.hpp, kinds kSine and kSineLinear)
// with n - 2 inequality rows and with n - 2 equality rows, solved by QPM at
// its defaults (tol = 1e-8): the inner iterations and Hessian-vector products
// that the rows' kind costs (bench/model_library/README.md). The rows are
// g_j(x) = x_j^2 + x_{j+1}^2 + x_{j+2}^2 (or x_j + x_{j+1} + x_{j+2}, linear),
// g_j <= 1.5 or g_j = 1.5.
//
//   inequality_chain [--n N] [--limited-memory]
//
// --limited-memory: hessian_approximation limited-memory (the L-BFGS inner
// solver; the last column is then 0).
#include <cstdio>
#include <cstdlib>
#include <string>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "chain_tnlp.hpp"

int main(int argc, char** argv) {
  int n = 100;
  bool limited_memory = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--n" && i + 1 < argc) n = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--limited-memory") limited_memory = true;
  }
  std::printf("| rows | n | m | status | f | outer | inner iterations | Hessian-vector products |\n"
              "|---|---|---|---|---|---|---|---|\n");
  for (const bool linear : {false, true}) {
    for (const bool inequality : {true, false}) {
      const ChainTnlp::Kind kind = linear ? ChainTnlp::Kind::kSineLinear : ChainTnlp::Kind::kSine;
      Ipopt::SmartPtr<ChainTnlp> chain = new ChainTnlp(n, kind, inequality);
      Ipopt::SmartPtr<qpm::QpmApplication> app = new qpm::QpmApplication();
      app->Options()->SetNumericValue("tol", 1e-8);
      app->Options()->SetIntegerValue("print_level", 0);
      app->Options()->SetStringValue("sb", "yes");
      if (limited_memory) app->Options()->SetStringValue("hessian_approximation", "limited-memory");
      app->Initialize("");
      const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(Ipopt::GetRawPtr(chain));
      const qpm::Summary& s = app->LastSummary();
      std::printf("| %s %s | %d | %d | %s | %.10g | %d | %ld | %ld |\n",
                  linear ? "linear" : "quadratic", inequality ? "g <= 1.5" : "g = 1.5", n, n - 2,
                  qpm::StatusName(status), chain->f_, s.outer_iterations, s.inner_iterations,
                  s.hess_products);
    }
  }
  return 0;
}
