// Ipopt's classic hs071 driver. hs071_qpm.cpp differs from it by the qpm
// include and the one line that creates the application.
#include <cstdio>

#include <IpIpoptApplication.hpp>

#include "hs071_nlp.hpp"

using namespace Ipopt;

int main() {
  SmartPtr<TNLP> nlp = new Hs071Nlp();
  SmartPtr<IpoptApplication> app = IpoptApplicationFactory();
  app->Options()->SetNumericValue("tol", 1e-9);
  app->Options()->SetStringValue("mu_strategy", "adaptive");
  if (app->Initialize() != Solve_Succeeded) return 1;
  const ApplicationReturnStatus status = app->OptimizeTNLP(nlp);
  std::printf("status %d\n", static_cast<int>(status));
  return status == Solve_Succeeded ? 0 : 1;
}
