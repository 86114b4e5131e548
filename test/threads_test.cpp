#define BOOST_TEST_MODULE threads
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "qpm/qpm.hpp"
#include "rosenbrock_sphere_tnlp.hpp"
#include "scratch_dir.hpp"
#include "status_print.hpp"
#include "test_problems.hpp"

using namespace qpm_test;
using Ipopt::SmartPtr;
using Ipopt::TNLP;

namespace {

// One solve: a fresh model and application, its log written to `log_path`.
struct Job {
  std::string model;   // "rosenbrock", "hs7", "hs6", "bounded"
  std::string inner;   // qpm_inner_solver
  bool adaptive = false;
};

SmartPtr<TNLP> MakeModel(const std::string& name) {
  if (name == "rosenbrock") return new RosenbrockSphereTnlp(1000, 1e-5);
  if (name == "hs7") return new DenseTnlp(Hs7());
  if (name == "hs6") return new DenseTnlp(Hs6());
  SmartPtr<DenseTnlp> bounded = new DenseTnlp(LeastNorm());
  bounded->x_lower = -3.0;
  bounded->inequality = true;
  return GetRawPtr(bounded);
}

qpm::SolverRun RunJob(const Job& job, const std::string& log_path) {
  SmartPtr<Ipopt::IpoptApplication> app = new qpm::QpmApplication();
  return qpm::RunSolver(app, MakeModel(job.model), job.model, [&](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", 1e-5);
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("output_file", log_path);
    o.SetIntegerValue("file_print_level", 5);
    o.SetStringValue("qpm_inner_solver", job.inner);
    if (job.adaptive) {
      o.SetStringValue("qpm_penalty_growth_mode", "adaptive");
      o.SetStringValue("qpm_extrapolate", "yes");
    }
  });
}

const std::vector<Job>& Jobs() {
  static const std::vector<Job> jobs = {
      {"rosenbrock", "gradient-descent"}, {"rosenbrock", "trust-region"},
      {"rosenbrock", "lbfgs"},            {"rosenbrock", "trust-region", true},
      {"hs7", "trust-region"},            {"hs6", "gradient-descent"},
      {"bounded", "trust-region"},        {"hs7", "lbfgs"}};
  return jobs;
}

// The log without the lines that report times.
std::string LogWithoutTimings(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream kept;
  for (std::string line; std::getline(in, line);) {
    if (line.find("secs") == std::string::npos) kept << line << '\n';
  }
  return kept.str();
}

bool BitIdentical(const qpm::Vector& a, const qpm::Vector& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

void RequireIdentical(const qpm::SolverRun& a, const qpm::SolverRun& b) {
  BOOST_TEST(a.status == b.status);
  BOOST_TEST(std::memcmp(&a.f, &b.f, sizeof a.f) == 0, a.f << " vs " << b.f);
  BOOST_TEST(BitIdentical(a.x, b.x));
  BOOST_TEST(BitIdentical(a.lambda, b.lambda));
  BOOST_TEST(BitIdentical(a.z_L, b.z_L));
  BOOST_TEST(BitIdentical(a.z_U, b.z_U));
  BOOST_TEST(a.counts.eval_f == b.counts.eval_f);
  BOOST_TEST(a.counts.eval_grad_f == b.counts.eval_grad_f);
  BOOST_TEST(a.counts.eval_h == b.counts.eval_h);
  BOOST_TEST(a.iterations == b.iterations);
}

}  // namespace

// The logs go to a fresh directory under the system's temporary one: none
// may appear in the working directory (the build tree).
BOOST_AUTO_TEST_CASE(EightParallelSolvesAreBitIdenticalToSerialOnes) {
  const std::set<std::string> logs_before = FilesEndingWith(".", ".log");
  const auto& jobs = Jobs();
  std::vector<qpm::SolverRun> serial(jobs.size()), parallel(jobs.size());
  {
    const ScratchDir dir;
    auto serial_log = [&](size_t i) { return dir.File("serial_" + std::to_string(i) + ".log"); };
    auto parallel_log = [&](size_t i) { return dir.File("parallel_" + std::to_string(i) + ".log"); };
    for (size_t i = 0; i < jobs.size(); ++i) serial[i] = RunJob(jobs[i], serial_log(i));
    std::vector<std::thread> threads;
    for (size_t i = 0; i < jobs.size(); ++i) {
      threads.emplace_back([&, i] { parallel[i] = RunJob(jobs[i], parallel_log(i)); });
    }
    for (std::thread& t : threads) t.join();
    BOOST_TEST(FilesEndingWith(dir.path(), ".log").size() == 2 * jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i) {
      BOOST_TEST_CONTEXT("job " << i << ": " << jobs[i].model << " with " << jobs[i].inner) {
        BOOST_TEST((serial[i].status == Ipopt::Solve_Succeeded ||
                    serial[i].status == Ipopt::Solved_To_Acceptable_Level),
                   qpm::StatusName(serial[i].status));
        RequireIdentical(serial[i], parallel[i]);
        BOOST_TEST(IsDirectlyInside(serial_log(i), dir.path()));
        BOOST_TEST(IsDirectlyInside(parallel_log(i), dir.path()));
        const std::string a = LogWithoutTimings(serial_log(i));
        BOOST_TEST(a.size() > 500u);  // the log really was written
        BOOST_TEST(a == LogWithoutTimings(parallel_log(i)));
      }
    }
  }
  BOOST_TEST(FilesEndingWith(".", ".log") == logs_before, "a .log appeared in the working directory");
}

BOOST_AUTO_TEST_CASE(RepeatedRunsWriteTheSameLogApartFromTimings) {
  const std::set<std::string> logs_before = FilesEndingWith(".", ".log");
  std::filesystem::path scratch;
  {
    const ScratchDir dir;
    scratch = dir.path();
    const Job job{"rosenbrock", "trust-region", true};
    const qpm::SolverRun a = RunJob(job, dir.File("repeat_a.log"));
    const qpm::SolverRun b = RunJob(job, dir.File("repeat_b.log"));
    BOOST_TEST(a.status == Ipopt::Solve_Succeeded);
    RequireIdentical(a, b);
    BOOST_TEST((FilesEndingWith(dir.path(), ".log") == std::set<std::string>{"repeat_a.log", "repeat_b.log"}));
    const std::string log = LogWithoutTimings(dir.File("repeat_a.log"));
    BOOST_TEST(log.find("EXIT: Optimal Solution Found.") != std::string::npos);
    BOOST_TEST(log == LogWithoutTimings(dir.File("repeat_b.log")));
  }
  BOOST_TEST(!std::filesystem::exists(scratch));  // removed with its logs
  BOOST_TEST(FilesEndingWith(".", ".log") == logs_before, "a .log appeared in the working directory");
}
