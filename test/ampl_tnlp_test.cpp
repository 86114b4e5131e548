#define BOOST_TEST_MODULE ampl_tnlp
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Dense>
#include <IpIpoptApplication.hpp>

#include "nl_binary.hpp"
#include "qpm/ampl/ampl_tnlp.hpp"
#include "qpm/qpm.hpp"
#include "scratch_dir.hpp"
#include "status_print.hpp"

// The models in test/nl/ are small enough to check by hand; each comment
// gives the model and its solution.
using Ipopt::Index;
using Ipopt::SmartPtr;
using qpm::AmplTnlp;

namespace {

constexpr double kInf = 1e19;

SmartPtr<AmplTnlp> Load(const std::string& name) {
  std::string error;
  SmartPtr<AmplTnlp> tnlp = AmplTnlp::Read(std::string(QPM_NL_DIR) + "/" + name, &error);
  BOOST_REQUIRE_MESSAGE(Ipopt::IsValid(tnlp), error);
  return tnlp;
}

struct Bounds {
  std::vector<double> x_l, x_u, g_l, g_u;
};

Bounds GetBounds(AmplTnlp& t) {
  Bounds b{std::vector<double>(t.NumVariables()), std::vector<double>(t.NumVariables()),
           std::vector<double>(t.NumConstraints()), std::vector<double>(t.NumConstraints())};
  BOOST_REQUIRE(t.get_bounds_info(t.NumVariables(), b.x_l.data(), b.x_u.data(),
                                  t.NumConstraints(), b.g_l.data(), b.g_u.data()));
  return b;
}

std::vector<double> Start(AmplTnlp& t) {
  std::vector<double> x(t.NumVariables());
  BOOST_REQUIRE(t.get_starting_point(t.NumVariables(), true, x.data(), false, nullptr, nullptr,
                                     t.NumConstraints(), false, nullptr));
  return x;
}

// Dense symmetric Hessian of the Lagrangian from eval_h's lower triangle.
Eigen::MatrixXd DenseHessian(AmplTnlp& t, const std::vector<double>& x, double sigma,
                             const std::vector<double>& lambda) {
  Index n, m, nnz_j, nnz_h;
  Ipopt::TNLP::IndexStyleEnum style;
  t.get_nlp_info(n, m, nnz_j, nnz_h, style);
  std::vector<Index> row(nnz_h), col(nnz_h);
  std::vector<double> v(nnz_h);
  BOOST_REQUIRE(t.eval_h(n, nullptr, true, 0, m, nullptr, true, nnz_h, row.data(), col.data(), nullptr));
  BOOST_REQUIRE(t.eval_h(n, x.data(), true, sigma, m, lambda.data(), true, nnz_h, nullptr, nullptr, v.data()));
  Eigen::MatrixXd h = Eigen::MatrixXd::Zero(n, n);
  for (Index k = 0; k < nnz_h; ++k) {
    BOOST_TEST(row[k] >= col[k]);  // lower triangle, as Ipopt wants
    h(row[k], col[k]) += v[k];
    if (row[k] != col[k]) h(col[k], row[k]) += v[k];
  }
  return h;
}

// Dense Jacobian from eval_jac_g.
Eigen::MatrixXd DenseJacobian(AmplTnlp& t, const std::vector<double>& x) {
  Index n, m, nnz_j, nnz_h;
  Ipopt::TNLP::IndexStyleEnum style;
  t.get_nlp_info(n, m, nnz_j, nnz_h, style);
  std::vector<Index> row(nnz_j), col(nnz_j);
  std::vector<double> v(nnz_j);
  BOOST_REQUIRE(t.eval_jac_g(n, nullptr, true, m, nnz_j, row.data(), col.data(), nullptr));
  BOOST_REQUIRE(t.eval_jac_g(n, x.data(), true, m, nnz_j, nullptr, nullptr, v.data()));
  Eigen::MatrixXd j = Eigen::MatrixXd::Zero(m, n);
  for (Index k = 0; k < nnz_j; ++k) j(row[k], col[k]) += v[k];
  return j;
}

double F(AmplTnlp& t, const std::vector<double>& x) {
  double f = 0.0;
  BOOST_REQUIRE(t.eval_f(t.NumVariables(), x.data(), true, f));
  return f;
}

std::vector<double> G(AmplTnlp& t, const std::vector<double>& x) {
  std::vector<double> g(t.NumConstraints());
  BOOST_REQUIRE(t.eval_g(t.NumVariables(), x.data(), true, t.NumConstraints(), g.data()));
  return g;
}

std::vector<double> GradF(AmplTnlp& t, const std::vector<double>& x) {
  std::vector<double> g(t.NumVariables());
  BOOST_REQUIRE(t.eval_grad_f(t.NumVariables(), x.data(), true, g.data()));
  return g;
}

// Solves with `app`; the TNLP keeps what finalize_solution received.
Ipopt::ApplicationReturnStatus SolveWith(SmartPtr<Ipopt::IpoptApplication> app, AmplTnlp* tnlp) {
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetNumericValue("tol", 1e-8);
  app->Options()->SetStringValue("qpm_inner_solver", "trust-region");
  BOOST_REQUIRE(app->Initialize("") == Ipopt::Solve_Succeeded);
  return app->OptimizeTNLP(tnlp);
}

SmartPtr<Ipopt::IpoptApplication> Ipopt() {
  SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  qpm::QpmApplication::RegisterQpmOptions(app->RegOptions());  // so SolveWith can set them
  return app;
}

std::string Status(Ipopt::ApplicationReturnStatus s) { return qpm::StatusName(s); }

bool Solved(Ipopt::ApplicationReturnStatus s) {
  return s == Ipopt::Solve_Succeeded || s == Ipopt::Solved_To_Acceptable_Level;
}

// Solves `name` with QPM and with Ipopt; checks status, then f, x and the
// AMPL duals against the hand solution (QPM's multipliers beta*c are
// accurate to about the feasibility tolerance times beta, hence looser).
void CheckSolution(const std::string& name, double f_star, const std::vector<double>& x_star,
                   const std::vector<double>& y_star) {
  SmartPtr<AmplTnlp> qpm_model = Load(name);
  const auto qpm_status = SolveWith(new qpm::QpmApplication(), GetRawPtr(qpm_model));
  BOOST_TEST_REQUIRE(Solved(qpm_status), name << ": QPM " << Status(qpm_status));
  SmartPtr<AmplTnlp> ipopt_model = Load(name);
  const auto ipopt_status = SolveWith(Ipopt(), GetRawPtr(ipopt_model));
  BOOST_TEST_REQUIRE(ipopt_status == Ipopt::Solve_Succeeded);
  const qpm::AmplSolution& q = qpm_model->Solution();
  const qpm::AmplSolution& p = ipopt_model->Solution();
  BOOST_TEST(q.objective == f_star, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(p.objective == f_star, boost::test_tools::tolerance(1e-6));
  for (std::size_t j = 0; j < x_star.size(); ++j) {
    BOOST_TEST(std::fabs(q.x[j] - x_star[j]) <= 1e-5, name << " QPM x[" << j << "] " << q.x[j]);
    BOOST_TEST(std::fabs(p.x[j] - x_star[j]) <= 1e-6, name << " Ipopt x[" << j << "] " << p.x[j]);
  }
  const std::vector<double> yq = qpm_model->AmplDuals(), yp = ipopt_model->AmplDuals();
  for (std::size_t i = 0; i < y_star.size(); ++i) {
    BOOST_TEST(std::fabs(yq[i] - y_star[i]) <= 1e-3, name << " QPM y[" << i << "] " << yq[i]);
    BOOST_TEST(std::fabs(yp[i] - y_star[i]) <= 1e-6, name << " Ipopt y[" << i << "] " << yp[i]);
  }
}

}  // namespace

// min x0 + x1 s.t. x0^2 + x1^2 = 2, from (-2, -0.5).
BOOST_AUTO_TEST_CASE(ReadsEqualityModelSizesBoundsAndValues) {
  SmartPtr<AmplTnlp> t = Load("equality.nl");
  BOOST_TEST(t->NumVariables() == 2);
  BOOST_TEST(t->NumConstraints() == 1);
  BOOST_TEST(!t->IsMaximization());
  const Bounds b = GetBounds(*t);
  BOOST_TEST(b.x_l == std::vector<double>({-kInf, -kInf}), boost::test_tools::per_element());
  BOOST_TEST(b.x_u == std::vector<double>({kInf, kInf}), boost::test_tools::per_element());
  BOOST_TEST(b.g_l[0] == 2.0);
  BOOST_TEST(b.g_u[0] == 2.0);
  const std::vector<double> x = Start(*t);
  BOOST_TEST(x == std::vector<double>({-2.0, -0.5}), boost::test_tools::per_element());
  BOOST_TEST(F(*t, x) == -2.5);
  BOOST_TEST(G(*t, x)[0] == 4.25);
  BOOST_TEST(GradF(*t, x) == std::vector<double>({1.0, 1.0}), boost::test_tools::per_element());
  const Eigen::MatrixXd j = DenseJacobian(*t, x);
  BOOST_TEST(j(0, 0) == -4.0);
  BOOST_TEST(j(0, 1) == -1.0);
  const Eigen::MatrixXd h = DenseHessian(*t, x, 3.0, {0.5});  // 0.5 * 2 I; f is linear
  BOOST_TEST((h - Eigen::MatrixXd::Identity(2, 2)).norm() <= 1e-14);
}

// min (x0-2)^2 + (x1-1)^2 s.t. x0^2 - x1 <= 0, x0 + x1 <= 2, -1 <= x0 - x1 <= 1,
// 0 <= x0 <= 10, x1 <= 5; from (0.5, 0).
BOOST_AUTO_TEST_CASE(ReadsInequalitiesRangesAndBounds) {
  SmartPtr<AmplTnlp> t = Load("inequality.nl");
  BOOST_TEST(t->NumVariables() == 2);
  BOOST_TEST(t->NumConstraints() == 3);
  const Bounds b = GetBounds(*t);
  BOOST_TEST(b.x_l == std::vector<double>({0.0, -kInf}), boost::test_tools::per_element());
  BOOST_TEST(b.x_u == std::vector<double>({10.0, 5.0}), boost::test_tools::per_element());
  BOOST_TEST(b.g_l == std::vector<double>({-kInf, -kInf, -1.0}), boost::test_tools::per_element());
  BOOST_TEST(b.g_u == std::vector<double>({0.0, 2.0, 1.0}), boost::test_tools::per_element());
  const std::vector<double> x = Start(*t);
  BOOST_TEST(F(*t, x) == 3.25);
  BOOST_TEST(G(*t, x) == std::vector<double>({0.25, 0.5, 0.5}), boost::test_tools::per_element());
  BOOST_TEST(GradF(*t, x) == std::vector<double>({-3.0, -2.0}), boost::test_tools::per_element());
  Eigen::MatrixXd j_star(3, 2);
  j_star << 1.0, -1.0, 1.0, 1.0, 1.0, -1.0;
  BOOST_TEST((DenseJacobian(*t, x) - j_star).norm() <= 1e-14);
  Eigen::MatrixXd h_star(2, 2);  // sigma 2 I + lambda0 diag(2, 0)
  h_star << 2.0 * 0.5 + 2.0 * 4.0, 0.0, 0.0, 2.0 * 0.5;
  BOOST_TEST((DenseHessian(*t, x, 0.5, {4.0, -7.0, 9.0}) - h_star).norm() <= 1e-14);
}

// max x0*x1 + x2 s.t. x0 + x1 = 2, x2 fixed at 3: the TNLP minimizes -f.
BOOST_AUTO_TEST_CASE(NegatesMaximizationObjectiveGradientAndHessian) {
  SmartPtr<AmplTnlp> t = Load("maximize.nl");
  BOOST_TEST(t->IsMaximization());
  BOOST_TEST(t->NumVariables() == 3);
  const Bounds b = GetBounds(*t);
  BOOST_TEST(b.x_l[2] == 3.0);
  BOOST_TEST(b.x_u[2] == 3.0);
  const std::vector<double> x = Start(*t);
  BOOST_TEST(x == std::vector<double>({0.5, 1.5, 0.0}), boost::test_tools::per_element());
  BOOST_TEST(F(*t, x) == -0.75);
  BOOST_TEST(t->ModelObjective(x.data()) == 0.75);
  BOOST_TEST(GradF(*t, x) == std::vector<double>({-1.5, -0.5, -1.0}), boost::test_tools::per_element());
  Eigen::MatrixXd h_star = Eigen::MatrixXd::Zero(3, 3);  // -sigma [[0 1], [1 0]]
  h_star(0, 1) = h_star(1, 0) = -2.0;
  BOOST_TEST((DenseHessian(*t, x, 2.0, {5.0}) - h_star).norm() <= 1e-14);
}

BOOST_AUTO_TEST_CASE(MalformedMissingAndCorruptFilesGiveErrorsNotExits) {
  for (const std::string name : {"malformed.nl", "corrupt.nl", "does_not_exist.nl"}) {
    std::string error;
    SmartPtr<AmplTnlp> t = AmplTnlp::Read(std::string(QPM_NL_DIR) + "/" + name, &error);
    BOOST_TEST(Ipopt::IsNull(t), name);
    BOOST_TEST(error.find(name) != std::string::npos, error);
  }
}

BOOST_AUTO_TEST_CASE(SolvesEqualityModelWithQpmAndIpopt) {
  // x = (-1, -1), Ipopt lambda = 0.5, AMPL dual -0.5 (raising the rhs lowers f).
  CheckSolution("equality.nl", -2.0, {-1.0, -1.0}, {-0.5});
}

BOOST_AUTO_TEST_CASE(SolvesInequalityModelWithQpmAndIpopt) {
  // x = (1, 1): rows 0 and 1 active with Ipopt lambda = 2/3 each, row 2 inactive.
  CheckSolution("inequality.nl", 1.0, {1.0, 1.0}, {-2.0 / 3.0, -2.0 / 3.0, 0.0});
}

BOOST_AUTO_TEST_CASE(SolvesMaximizationReportingModelSignAndDuals) {
  // x = (1, 1, 3), f = 4; d f*/d rhs = rhs / 2 = 1 is AMPL's dual.
  CheckSolution("maximize.nl", 4.0, {1.0, 1.0, 3.0}, {1.0});
}

BOOST_AUTO_TEST_CASE(WritesSolFileAfterSolve) {
  // Read() keeps the stub for write_sol, which writes the .sol next to the
  // .nl: solve a copy in a scratch directory, so nothing lands in the cwd.
  const qpm_test::ScratchDir dir;
  const std::string copy = dir.File("ampl_tnlp_test_copy.nl");
  {
    std::ifstream in(std::string(QPM_NL_DIR) + "/equality.nl");
    std::ofstream out(copy);
    out << in.rdbuf();
  }
  std::string error;
  SmartPtr<AmplTnlp> t = AmplTnlp::Read(copy, &error);
  BOOST_REQUIRE(Ipopt::IsValid(t));
  BOOST_TEST(!t->WriteSolution("nothing solved yet", 0));
  BOOST_TEST_REQUIRE(Solved(SolveWith(new qpm::QpmApplication(), GetRawPtr(t))));
  BOOST_TEST(t->WriteSolution("test message", 0));
  const std::string sol_path = dir.File("ampl_tnlp_test_copy.sol");
  BOOST_TEST_REQUIRE(std::filesystem::exists(sol_path));
  BOOST_TEST(!std::filesystem::exists("ampl_tnlp_test_copy.sol"));  // not in the cwd
  std::ifstream sol(sol_path);
  std::string first;
  std::getline(sol, first);
  BOOST_TEST(first == "test message");
}

// min (x0-2)^2 - log(x0), -1 <= x0 <= 10: log fails for x0 <= 0. ASL must
// report that through eval_f's return value, not end the process.
BOOST_AUTO_TEST_CASE(EvaluationErrorsReturnFalseAndLeaveTheModelUsable) {
  SmartPtr<AmplTnlp> t = Load("evalerror.nl");
  double f = 0.0, g = 0.0;
  const double bad = -0.5, good = 1.0;
  BOOST_TEST(!t->eval_f(1, &bad, true, f));
  BOOST_TEST(!t->eval_grad_f(1, &bad, true, &g));
  BOOST_TEST(t->EvaluationErrors() == 2);
  BOOST_TEST(t->eval_f(1, &good, true, f));
  BOOST_TEST(f == 1.0);
  BOOST_TEST(t->eval_grad_f(1, &good, true, &g));
  BOOST_TEST(g == -3.0);  // 2 (x0 - 2) - 1 / x0
}

BOOST_AUTO_TEST_CASE(SolvesModelWithEvaluationErrorsOutsideItsDomain) {
  const double x_star = 1.0 + std::sqrt(6.0) / 2.0;  // 2 x^2 - 4 x - 1 = 0
  const double f_star = (x_star - 2.0) * (x_star - 2.0) - std::log(x_star);
  CheckSolution("evalerror.nl", f_star, {x_star}, {});
}

namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A scratch directory of its own, removed at the end.
struct ScratchDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("qpm_ampl_tnlp_test_" + std::to_string(::getpid()));
  ScratchDir() { std::filesystem::create_directories(path); }
  ~ScratchDir() { std::filesystem::remove_all(path); }
  std::string Write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path / name, std::ios::binary) << bytes;
    return (path / name).string();
  }
};

// Read() refuses `bytes` with one line naming the file and holding each of `what`.
void ExpectRefused(const ScratchDir& dir, const std::string& name, const std::string& bytes,
                   std::initializer_list<std::string> what) {
  std::string error;
  SmartPtr<AmplTnlp> t = AmplTnlp::Read(dir.Write(name, bytes), &error);
  BOOST_TEST(Ipopt::IsNull(t), name);
  BOOST_TEST(error.find(name) != std::string::npos, error);
  for (const std::string& w : what) BOOST_TEST(error.find(w) != std::string::npos, error << " lacks '" << w << "'");
  BOOST_TEST(error.find('\n') == std::string::npos, error);
}

}  // namespace

// A 12 kB file cannot hold 4e12 variables: refused before the ASL allocates.
BOOST_AUTO_TEST_CASE(RefusesHeaderCountsTheFileCannotHold) {
  ScratchDir dir;
  const std::string nl = Slurp(std::string(QPM_NL_DIR) + "/inequality.nl");
  auto line = [&](int n, const std::string& from, const std::string& to) {
    std::string s = nl;
    std::size_t at = 0;
    for (int i = 1; i < n; ++i) at = s.find('\n', at) + 1;
    s.replace(s.find(from, at), from.size(), to);
    return s;
  };
  ExpectRefused(dir, "vars.nl", line(2, " 2 3", " 4000000000000 3"),
                {"claims 4000000000000 variables,", "hold at most 178 "});
  ExpectRefused(dir, "cons.nl", line(2, " 2 3", " 2 100000000000"),
                {"claims 100000000000 constraints,", "hold at most 71 "});
  ExpectRefused(dir, "jac.nl", line(8, " 6 2", " 2000000000 2"),
                {"claims 2000000000 Jacobian nonzeros,", "hold at most 89 "});
  ExpectRefused(dir, "sum.nl", line(8, " 6 2", " 85 2"), {"counts need at least 370 bytes"});
  ExpectRefused(dir, "nlc.nl", line(3, " 1 1", " 4 1"), {"4 nonlinear constraints but only 3"});
  ExpectRefused(dir, "short.nl", line(10, " 0 0 0 0 0", " 0 0 0 0"), {"line 10 has 4 integers, needs 5"});
  ExpectRefused(dir, "header.nl", nl.substr(0, 200), {"ends in header line"});
  ExpectRefused(dir, "novars.nl", line(2, " 2 3", " 0 3"), {"claims 0 variables"});
  ExpectRefused(dir, "huge.nl", line(10, " 0 0 0 0 0", " 0 0 0 0 99999999999999999999"),
                {"claims 999999999999999999 common expressions"});
  ExpectRefused(dir, "arith.nl", line(6, " 0 0 0 1", " 0 0 7 1"), {"arithmetic kind 7"});
}

// What the ASL would trust and crash or exit on: missing segments, a count
// the file cannot hold, an undeclared function, an index out of range.
BOOST_AUTO_TEST_CASE(RefusesBodiesTheAslWouldTrust) {
  ScratchDir dir;
  const std::string nl = Slurp(std::string(QPM_NL_DIR) + "/equality.nl");
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = nl;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  ExpectRefused(dir, "truncated.nl", nl.substr(0, nl.find("O0 0")), {"no O segment for objective 0"});
  ExpectRefused(dir, "sum.nl", replace("C0\t# x0^2 + x1^2\no0\n", "C0\no54\n2000000000\n"),
                {"2000000000 operands, but", "bytes remain"});
  ExpectRefused(dir, "call.nl", replace("C0\t# x0^2 + x1^2\no0\n", "C0\nf0 2\n"),
                {"call of undeclared function 0"});
  ExpectRefused(dir, "variable.nl", replace("v1\n", "v2\n"), {"variable 2"});
  ExpectRefused(dir, "operator.nl", replace("o5\nv1", "o77\nv1"), {"unknown operator 77"});
  ExpectRefused(dir, "jacobian.nl", replace("J0 2\n0 0\n1 0\n", "J0 2\n0 0\n0 0\n"),
                {"k segment gives variable 0 1 Jacobian entries, the J segments 2"});
}

// fg_write's binary form of each model reads as the text form does.
BOOST_AUTO_TEST_CASE(ReadsBinaryModelsAsTheirTextForms) {
  ScratchDir dir;
  for (const std::string name : {"equality", "inequality", "maximize", "evalerror"}) {
    const std::string text = std::string(QPM_NL_DIR) + "/" + name + ".nl";
    const std::string stub = (dir.path / ("b_" + name)).string();
    BOOST_TEST_REQUIRE(qpm_test::WriteBinaryNl(text, stub), name);
    BOOST_TEST(Slurp(stub + ".nl")[0] == 'b');
    SmartPtr<AmplTnlp> t = Load(name + ".nl");
    std::string error;
    SmartPtr<AmplTnlp> b = AmplTnlp::Read(stub, &error);
    BOOST_TEST_REQUIRE(Ipopt::IsValid(b), error);
    BOOST_TEST(b->NumVariables() == t->NumVariables());
    BOOST_TEST(b->NumConstraints() == t->NumConstraints());
    const Bounds bb = GetBounds(*b), bt = GetBounds(*t);
    BOOST_TEST(bb.x_l == bt.x_l, boost::test_tools::per_element());
    BOOST_TEST(bb.g_u == bt.g_u, boost::test_tools::per_element());
    const std::vector<double> x = Start(*t);
    BOOST_TEST(Start(*b) == x, boost::test_tools::per_element());
    BOOST_TEST(F(*b, x) == F(*t, x));
    BOOST_TEST(G(*b, x) == G(*t, x), boost::test_tools::per_element());
  }
}
