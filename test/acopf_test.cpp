// The MATPOWER reader and the AC-OPF model of models/ (docs/acopf.md): the
// reader keeps what it should and refuses malformed files by file, line and
// problem; the derivatives agree with finite differences; qpm and Ipopt reach
// PGLib's reference objectives on cases embedded in pglib_cases.hpp.
#define BOOST_TEST_MODULE acopf
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <IpIpoptApplication.hpp>

#include "acopf_tnlp.hpp"
#include "matpower_case.hpp"
#include "pglib_case73_api.hpp"
#include "pglib_cases.hpp"
#include "qpm/qpm.hpp"
#include "scratch_dir.hpp"
#include "status_print.hpp"

using Ipopt::SmartPtr;

namespace {

// A small grid that has what the PGLib cases above do not: a transformer
// with a phase shift, a shunt conductance, a branch without thermal limit
// (and -+360 deg angle limits), a reversed parallel branch, costs with 1 and
// 2 coefficients, an isolated bus with a generator and a branch at it,
// out-of-service elements, and the syntax a hand-written file may use.
constexpr const char* kTestGrid = R"(function mpc = test_grid
mpc.version = '2';
mpc.baseMVA = 100;
mpc.bus = [
  % bus type Pd  Qd  Gs  Bs area Vm Va baseKV zone Vmax Vmin
  1, 3, 0,  0,  0,  0,  1,  1, 0,  230,  1,  1.1,  0.9;
  2  2  90  30  5   0   1   1  0   230   1   1.1   0.9   % the line end ends the row
  3  1  100 35  0   20  1   1  0   230   1   1.1   0.9;
  4  4  50  10  0   0   1   1  0   230   1   1.1   0.9;  % isolated
  5  1  60  20  0   0   1   1  0   230   1 ...
     1.05 0.95;
];
mpc.bus_name = {
  'one';
  'two % not a comment [';
  'three'; 'four'; 'five';
};
mpc.gen = [
  1  0  0  300 -300  1  100  1  250  10;
  2  0  0  300 -300  1  100  1  300  10;
  4  0  0  300 -300  1  100  1  300  10;  % at the isolated bus
  3  0  0  300 -300  1  100  0  300  10;  % out of service
  5  0  0  100 -100  1  100  1  100  0;
];
mpc.gencost = [
  2  0  0  3  0.11  5    150;
  2  0  0  1  600   0    0;    % a constant
  2  0  0  3  0.1   1    0;
  1  0  0  2  0     0    0;    % piecewise linear, but out of service
  2  0  0  2  3     0    0;    % linear, the last column unused
];
mpc.branch = [
  % f t r     x      b      rateA rateB rateC ratio angle status angmin angmax
  1  2  0.01  0.085  0.176  250  250  250  0     0    1  -30   30;
  1  3  0.017 0.092  0.158  250  250  250  0.98  2.5  1  -60   60;
  3  2  0.0   0.1    0.0    0    0    0    1.02  0    1  -360  360;
  2  3  0.01  0.1    0.02   150  150  150  0     0    1  -20   25;
  3  5  0.02  0.12   0.1    200  200  200  0     0    1  -30   30;
  5  1  0.02  0.15   0.1    200  200  200  0     0    1  -30   30;
  3  4  0.01  0.1    0.0    100  100  100  0     0    1  -30   30;  % to the isolated bus
  2  5  0.01  0.1    0.0    100  100  100  0     0    0  -30   30;  % out of service
];
)";

constexpr double kPi = 3.14159265358979323846;

acopf::MatpowerCase Parse(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  return acopf::ParseMatpowerCase(in, source);
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("test text has no '" + from + "'");
  return text.replace(at, from.size(), to);
}

// 1-based line of the first occurrence of `marker` in `text`.
int LineOf(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  if (at == std::string::npos) throw std::logic_error("test text has no '" + marker + "'");
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

// The message ReadMatpowerCase throws for `text` written to a scratch file.
// Returns the file's path and the message.
std::pair<std::string, std::string> ErrorOf(const qpm_test::ScratchDir& dir,
                                            const std::string& text,
                                            const acopf::MatpowerLimits& limits = {}) {
  const std::string path = dir.File("case.m");
  std::ofstream(path, std::ios::binary) << text;
  try {
    acopf::ReadMatpowerCase(path, limits);
  } catch (const std::runtime_error& e) {
    return {path, e.what()};
  }
  return {path, "(no error)"};
}

struct Bounds {
  std::vector<double> x_l, x_u, g_l, g_u;
};

Bounds BoundsOf(acopf::AcopfTnlp& nlp) {
  Bounds b;
  const int n = nlp.num_variables(), m = nlp.num_constraints();
  b.x_l.resize(n), b.x_u.resize(n), b.g_l.resize(m), b.g_u.resize(m);
  nlp.get_bounds_info(n, b.x_l.data(), b.x_u.data(), m, b.g_l.data(), b.g_u.data());
  return b;
}

struct Outcome {
  Ipopt::ApplicationReturnStatus status;
  double objective;
  double generation_cost;
};

Outcome Solve(SmartPtr<Ipopt::IpoptApplication> app, const acopf::MatpowerCase& grid) {
  SmartPtr<acopf::AcopfTnlp> nlp = new acopf::AcopfTnlp(grid);
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  BOOST_REQUIRE(app->Initialize() == Ipopt::Solve_Succeeded);
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(GetRawPtr(nlp));
  return {status, nlp->objective(), nlp->GenerationCost()};
}

SmartPtr<Ipopt::IpoptApplication> QpmApp() { return new qpm::QpmApplication(); }
SmartPtr<Ipopt::IpoptApplication> IpoptApp() { return IpoptApplicationFactory(); }

double RelativeGap(double a, double reference) {
  return std::abs(a - reference) / std::abs(reference);
}

}  // namespace

BOOST_AUTO_TEST_CASE(ReadsAPglibCaseAsWritten) {
  const acopf::MatpowerCase c = Parse(qpm_test::kCase3Lmbd, "cases/pglib_opf_case3_lmbd.m");
  BOOST_TEST(c.name == "pglib_opf_case3_lmbd");
  BOOST_TEST(c.base_mva == 100.0);
  BOOST_TEST_REQUIRE(c.buses.size() == 3u);
  BOOST_TEST_REQUIRE(c.gens.size() == 3u);
  BOOST_TEST_REQUIRE(c.branches.size() == 3u);
  BOOST_TEST(c.buses[0].type == 3);
  BOOST_TEST(c.buses[2].pd == 95.0);
  BOOST_TEST(c.gens[1].c2 == 0.085);
  BOOST_TEST(c.gens[1].c1 == 1.2);
  BOOST_TEST(c.gens[0].pmax == 2000.0);
  BOOST_TEST(c.branches[1].from == 2);  // bus 3 -> bus 2, as indices
  BOOST_TEST(c.branches[1].to == 1);
  BOOST_TEST(c.branches[1].rate_a == 50.0);
}

BOOST_AUTO_TEST_CASE(KeepsInServiceElementsAndDropsIsolatedBuses) {
  const acopf::MatpowerCase c = Parse(kTestGrid, "test_grid.m");
  BOOST_TEST_REQUIRE(c.buses.size() == 4u);  // bus 4 is isolated
  BOOST_TEST(c.buses[3].id == 5);
  BOOST_TEST(c.buses[3].vmax == 1.05);  // the row continued with ...
  BOOST_TEST_REQUIRE(c.gens.size() == 3u);  // at buses 1, 2, 5
  BOOST_TEST(c.gens[2].bus == 3);
  BOOST_TEST(c.gens[1].c0 == 600.0);
  BOOST_TEST(c.gens[1].c1 == 0.0);
  BOOST_TEST(c.gens[2].c1 == 3.0);
  BOOST_TEST(c.gens[2].c2 == 0.0);
  BOOST_TEST(c.branches.size() == 6u);
}

BOOST_AUTO_TEST_CASE(ModelHasPowerModelsAnglePairsAndNoThermalRowWithoutRating) {
  SmartPtr<acopf::AcopfTnlp> nlp = new acopf::AcopfTnlp(Parse(kTestGrid, "test_grid.m"));
  const int nb = 4, ng = 3, nl = 6, pairs = 5, rated = 5;
  BOOST_TEST(nlp->num_variables() == 2 * nb + 2 * ng + 4 * nl);
  BOOST_TEST(nlp->num_constraints() == 2 * nb + 4 * nl + pairs + 2 * rated);
  const Bounds b = BoundsOf(*nlp);
  // The pair (3, 2): the unlimited branch 3 -> 2 gets PowerModels' -+60 deg,
  // the reversed parallel 2 -> 3 in [-20, 25] deg is va_3 - va_2 in [-25, 20].
  const int row = 2 * nb + 4 * nl + 2;
  BOOST_TEST(b.g_l[row] == -25 * kPi / 180, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(b.g_u[row] == 20 * kPi / 180, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(b.x_l[nlp->va(0)] == 0.0);  // the reference angle
  BOOST_TEST(b.x_u[nlp->va(0)] == 0.0);
  BOOST_TEST(b.x_u[nlp->flow(2, acopf::AcopfTnlp::kQTo)] > 1e19);  // no rating: free
  BOOST_TEST(b.x_u[nlp->flow(0, acopf::AcopfTnlp::kPFrom)] == 2.5);  // 250 MVA
  BOOST_TEST(b.g_l[0] == 0.0);   // bus 1: no load
  BOOST_TEST(b.g_l[1] == -0.9);  // bus 2: -Pd in p.u.
}

BOOST_AUTO_TEST_CASE(DerivativeStructuresListEachEntryOnceAndTheHessianIsLower) {
  SmartPtr<acopf::AcopfTnlp> nlp = new acopf::AcopfTnlp(Parse(qpm_test::kCase30As, "case30.m"));
  Ipopt::Index n, m, nnz_jac, nnz_h;
  Ipopt::TNLP::IndexStyleEnum style;
  nlp->get_nlp_info(n, m, nnz_jac, nnz_h, style);
  std::vector<Ipopt::Index> rows(std::max(nnz_jac, nnz_h)), cols(rows.size());
  nlp->eval_jac_g(n, nullptr, true, m, nnz_jac, rows.data(), cols.data(), nullptr);
  std::set<std::pair<int, int>> jac;
  for (int k = 0; k < nnz_jac; ++k) jac.emplace(rows[k], cols[k]);
  BOOST_TEST(jac.size() == static_cast<std::size_t>(nnz_jac));
  nlp->eval_h(n, nullptr, true, 1.0, m, nullptr, true, nnz_h, rows.data(), cols.data(), nullptr);
  std::set<std::pair<int, int>> hess;
  for (int k = 0; k < nnz_h; ++k) {
    BOOST_TEST(rows[k] >= cols[k]);
    hess.emplace(rows[k], cols[k]);
  }
  BOOST_TEST(hess.size() == static_cast<std::size_t>(nnz_h));
}

// qpm's derivative checker (Ipopt's derivative_test second-order) at a
// seeded random point within 10 of the start and within the bounds.
BOOST_AUTO_TEST_CASE(DerivativesAgreeWithFiniteDifferences) {
  for (const char* text : {kTestGrid, qpm_test::kCase3Lmbd}) {
    SmartPtr<acopf::AcopfTnlp> nlp = new acopf::AcopfTnlp(Parse(text, "grid.m"));
    qpm::DerivativeTestOptions options;
    options.level = qpm::DerivativeTestOptions::Level::kSecondOrder;
    options.tol = 1e-6;
    const qpm::DerivativeTestResult r = qpm::CheckDerivatives(*nlp, options);
    BOOST_TEST(r.evaluated, r.failure);
    const auto first_error = std::find_if(r.lines.begin(), r.lines.end(),
                                          [](const std::string& l) { return l.rfind('*', 0) == 0; });
    BOOST_TEST(r.errors == 0, (first_error != r.lines.end() ? *first_error : std::string()));
    BOOST_TEST(r.checked > 0);
  }
}

BOOST_AUTO_TEST_CASE(RefusesMalformedFilesNamingFileLineAndProblem) {
  struct Broken {
    std::string from, to;  // the change made to kTestGrid
    std::string marker;    // the text on the line the message names ("": no line)
    std::string problem;   // part of the message
  };
  const std::vector<Broken> cases = {
      {"mpc.gen = [", "mpc.gen_old = [", "", "no mpc.gen matrix"},
      {"mpc.baseMVA = 100;", "", "", "no mpc.baseMVA"},
      {"  3  1  100 35  0   20", "  3  1  100 35  0", "  3  1  100 35  0",
       "row 3 has 12 columns, the rows before it have 13"},
      {"  5  0  0  100 -100  1  100  1  100  0;", "  5  0  0  100 -100  1  100  1  1OO  0;",
       "1OO", "'1OO' in mpc.gen row 5, column 9 is not a number"},
      {"  2  0  0  3  0.1   1    0;", "  2  0  0  3  NaN   1    0;", "NaN", "is not a number"},
      {"  1  0  0  300 -300  1  100  1  250  10;", "  9  0  0  300 -300  1  100  1  250  10;",
       "  9  0  0  300", "refers to bus 9, which is not in mpc.bus"},
      {"1, 3, 0,", "1, 2, 0,", "mpc.bus = [", "no reference bus (type 3)"},
      {"  2  0  0  3  0.11  5    150;", "  1  0  0  3  0.11  5    150;", "  1  0  0  3  0.11",
       "piecewise linear generator cost (model 1) is not supported"},
      {"  2  0  0  2  3     0    0;    % linear, the last column unused\n", "", "mpc.gencost = [",
       "mpc.gencost has 4 rows for 5 generators"},
      {"  2  0  0  3  0.11  5    150;", "  2  0  0  4  0.11  5    150;", "  2  0  0  4",
       "polynomial cost with 4 coefficients"},
      {"mpc.branch = [", "mpc.branch = [\n  1  1  0.01  0.1  0  0  0  0  0  0  1  -30  30;",
       "  1  1  0.01", "branch connects a bus to itself"},
      {"  5  1  60", "  3  1  60", "  3  1  60", "bus number 3 appears twice"},
      {"mpc.version = '2';", "mpc.version = '1';", "mpc.version", "only version '2'"},
      {"mpc.gen = [", "mpc.bus(2, 3) = 5;\nmpc.gen = [", "mpc.bus(2, 3)", "not a plain assignment"},
      {"  2  5  0.01  0.1    0.0    100  100  100  0     0    0  -30   30;  % out of service\n];",
       "", "mpc.branch = [", "mpc.branch has no closing ] before the end of the file"},
      {"'three'; 'four'; 'five';\n};", "'three'; 'four'; 'five';", "mpc.bus_name",
       "statement has no closing bracket before the end of file"},
      {"  1  2  0.01  0.085  0.176  250", "  1  2  0.01  0.085  0.176  -250", "-250",
       "negative RATE_A"},
      {"1.05 0.95;\n];", "1.05 0.95;\n]';", "]';", "unexpected"},
  };
  qpm_test::ScratchDir dir;
  for (const Broken& b : cases) {
    const std::string text = Replaced(kTestGrid, b.from, b.to);
    const auto [path, message] = ErrorOf(dir, text);
    const std::string line = b.marker.empty() ? "" : ":" + std::to_string(LineOf(text, b.marker));
    const std::string where = path + line + ": ";
    BOOST_TEST(message.rfind(where, 0) == 0, "'" << message << "' does not start with " << where);
    BOOST_TEST(message.find(b.problem) != std::string::npos,
               "'" << message << "' lacks " << b.problem);
  }
}

BOOST_AUTO_TEST_CASE(RefusesAMissingFileAndFilesBeyondTheLimits) {
  qpm_test::ScratchDir dir;
  try {
    acopf::ReadMatpowerCase(dir.File("absent.m"));
    BOOST_FAIL("no error for a missing file");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()) == dir.File("absent.m") + ": cannot open the file");
  }
  acopf::MatpowerLimits few_rows;
  few_rows.max_rows = 3;
  BOOST_TEST(ErrorOf(dir, kTestGrid, few_rows).second.find("mpc.bus has more than 3 rows") !=
             std::string::npos);
  acopf::MatpowerLimits short_lines;
  short_lines.max_line_length = 40;
  const std::string text =
      Replaced(kTestGrid, "mpc.version", std::string(41, '%') + "\nmpc.version");
  BOOST_TEST(ErrorOf(dir, text, short_lines).second.find(":2: line longer than 40 characters") !=
             std::string::npos);
  acopf::MatpowerLimits narrow;
  narrow.max_columns = 12;
  BOOST_TEST(ErrorOf(dir, kTestGrid, narrow).second.find("row has more than 12 entries") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(QpmReachesTheReferenceObjectiveOfCase3Lmbd) {
  const Outcome o = Solve(QpmApp(), Parse(qpm_test::kCase3Lmbd, "pglib_opf_case3_lmbd.m"));
  BOOST_TEST(o.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(RelativeGap(o.objective, qpm_test::kCase3LmbdObjective) <= 1e-4);
  BOOST_TEST(RelativeGap(o.generation_cost, o.objective) <= 1e-10);
}

BOOST_AUTO_TEST_CASE(IpoptReachesTheReferenceObjectiveOfCase3Lmbd) {
  const Outcome o = Solve(IpoptApp(), Parse(qpm_test::kCase3Lmbd, "pglib_opf_case3_lmbd.m"));
  BOOST_TEST(o.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(RelativeGap(o.objective, qpm_test::kCase3LmbdObjective) <= 1e-4);
}

BOOST_AUTO_TEST_CASE(QpmReachesTheReferenceObjectiveOfCase30As) {
  const Outcome o = Solve(QpmApp(), Parse(qpm_test::kCase30As, "pglib_opf_case30_as.m"));
  BOOST_TEST(o.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(RelativeGap(o.objective, qpm_test::kCase30AsObjective) <= 1e-4);
  BOOST_TEST(RelativeGap(o.generation_cost, o.objective) <= 1e-10);
}

// Its last subproblems run at beta ~ 2e7, where beta J^T J dwarfs W: the
// Cholesky face's shift must stay at W's scale for its steps to be Newton
// steps (docs/algorithm.md, "Choosing the preconditioner", Inertia).
BOOST_AUTO_TEST_CASE(QpmReachesTheReferenceObjectiveOfCase73ApiAtALargePenalty) {
  const Outcome o = Solve(QpmApp(), Parse(qpm_test::kCase73Api, "pglib_opf_case73_ieee_rts__api.m"));
  BOOST_TEST(o.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(RelativeGap(o.objective, qpm_test::kCase73ApiObjective) <= 1e-4);
}

BOOST_AUTO_TEST_CASE(IpoptReachesTheReferenceObjectiveOfCase30As) {
  const Outcome o = Solve(IpoptApp(), Parse(qpm_test::kCase30As, "pglib_opf_case30_as.m"));
  BOOST_TEST(o.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(RelativeGap(o.objective, qpm_test::kCase30AsObjective) <= 1e-4);
}

// No reference value: the two solvers must agree on the grid with
// transformers, shunts and parallel branches.
BOOST_AUTO_TEST_CASE(QpmAndIpoptAgreeOnAGridWithTransformersAndShunts) {
  const acopf::MatpowerCase grid = Parse(kTestGrid, "test_grid.m");
  const Outcome ipopt = Solve(IpoptApp(), grid);
  const Outcome qpm = Solve(QpmApp(), grid);
  BOOST_TEST_REQUIRE(ipopt.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(qpm.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(RelativeGap(qpm.objective, ipopt.objective) <= 1e-6);
}
