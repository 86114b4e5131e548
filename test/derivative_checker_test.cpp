#define BOOST_TEST_MODULE derivative_checker
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "qpm/qpm.hpp"
#include "scratch_dir.hpp"
#include "test_problems.hpp"

using namespace qpm_test;
using Ipopt::SmartPtr;
using Ipopt::TNLP;
using Level = qpm::DerivativeTestOptions::Level;

namespace {

qpm::DerivativeTestResult Check(DenseTnlp& tnlp, Level level) {
  qpm::DerivativeTestOptions options;
  options.level = level;
  return qpm::CheckDerivatives(tnlp, options);
}

int LinesStartingWith(const qpm::DerivativeTestResult& r, const std::string& prefix) {
  return static_cast<int>(std::count_if(r.lines.begin(), r.lines.end(), [&](const std::string& l) {
    return l.rfind(prefix, 0) == 0;
  }));
}

}  // namespace

BOOST_AUTO_TEST_CASE(CorrectDerivativesPassEveryComparison) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());  // n = 2, m = 1
  const qpm::DerivativeTestResult r = Check(*tnlp, Level::kSecondOrder);
  BOOST_TEST(r.evaluated, r.failure);
  BOOST_TEST(r.errors == 0);
  BOOST_TEST(r.checked == 2 + 1 * 2 + (1 + 1) * 2 * 2);
  BOOST_TEST(r.lines.back() == "No errors detected by derivative checker.");
}

BOOST_AUTO_TEST_CASE(AWrongGradientEntryIsReportedInIpoptsLayout) {
  for (auto style : {TNLP::C_STYLE, TNLP::FORTRAN_STYLE}) {
    SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7(), style);
    tnlp->grad_error = 0.5;
    const qpm::DerivativeTestResult r = Check(*tnlp, Level::kFirstOrder);
    BOOST_TEST(r.evaluated, r.failure);
    BOOST_TEST(r.errors == 1);
    // The last variable, numbered in the model's index style.
    const std::string expected = style == TNLP::C_STYLE ? "* grad_f[          1] = "
                                                        : "* grad_f[          2] = ";
    BOOST_TEST(LinesStartingWith(r, expected) == 1);
    BOOST_TEST(r.lines.back() == "Derivative checker detected 1 error(s).");
  }
}

BOOST_AUTO_TEST_CASE(WrongJacobianAndHessianEntriesAreEachReported) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  tnlp->jac_error = 1.0;
  tnlp->hess_error = 2.0;  // the (0, 0) value of every Hessian the model returns
  const qpm::DerivativeTestResult r = Check(*tnlp, Level::kSecondOrder);
  BOOST_TEST(r.evaluated, r.failure);
  BOOST_TEST(LinesStartingWith(r, "* jac_g [    0,    0] = ") == 1);
  BOOST_TEST(LinesStartingWith(r, "*             obj_hess[    0,    0] = ") == 1);
  BOOST_TEST(LinesStartingWith(r, "*     0-th constr_hess[    0,    0] = ") == 1);
  BOOST_TEST(r.errors == 3);
}

BOOST_AUTO_TEST_CASE(OnlySecondOrderSkipsTheFirstDerivatives) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  tnlp->grad_error = 0.5;  // a constant offset: invisible to differences of the gradient
  const qpm::DerivativeTestResult r = Check(*tnlp, Level::kOnlySecondOrder);
  BOOST_TEST(r.evaluated, r.failure);
  BOOST_TEST(r.errors == 0);
  BOOST_TEST(LinesStartingWith(r, "Starting derivative checker for first") == 0);
  BOOST_TEST(r.checked == (1 + 1) * 2 * 2);
}

BOOST_AUTO_TEST_CASE(PrintAllListsEveryEntry) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  qpm::DerivativeTestOptions options;
  options.level = Level::kFirstOrder;
  options.print_all = true;
  const qpm::DerivativeTestResult r = qpm::CheckDerivatives(*tnlp, options);
  BOOST_TEST(r.errors == 0);
  BOOST_TEST(LinesStartingWith(r, "  grad_f[") == 2);
  BOOST_TEST(LinesStartingWith(r, "  jac_g [") == 2);
}

BOOST_AUTO_TEST_CASE(TheApplicationPrintsTheReportAndStillSolves) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  tnlp->jac_error = 1.0;  // the solve still runs; the wrong Jacobian may stop it anywhere
  const ScratchDir dir;  // the output file goes there, not into the cwd
  const std::string path = dir.File("derivative_test_output.txt");
  {  // the application closes (flushes) its output file when it goes
  SmartPtr<Ipopt::IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetStringValue("output_file", path);
  app->Options()->SetIntegerValue("file_print_level", 5);
  app->Options()->SetStringValue("derivative_test", "first-order");
  app->Options()->SetIntegerValue("max_iter", 200);  // the wrong Jacobian may keep GD busy
  BOOST_REQUIRE(app->Initialize("") == Ipopt::Solve_Succeeded);
  app->OptimizeTNLP(SmartPtr<TNLP>(GetRawPtr(tnlp)));
  }
  BOOST_TEST(tnlp->finalize_calls == 1);
  std::ifstream in(path);
  const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  BOOST_TEST(log.find("Starting derivative checker for first derivatives.") != std::string::npos);
  BOOST_TEST(log.find("* jac_g [    0,    0] = ") != std::string::npos);
  BOOST_TEST(log.find("Derivative checker detected 1 error(s).") != std::string::npos);
  BOOST_TEST(!std::filesystem::exists("derivative_test_output.txt"));
}
