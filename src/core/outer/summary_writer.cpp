#include "core/outer/summary_writer.hpp"

#include <algorithm>
#include <cmath>

#include "core/linalg/huge_pages.hpp"
#include "core/stationarity.hpp"

namespace qpm {

namespace {

TerminationType FromInner(InnerStatus status) {
  switch (status) {
    case InnerStatus::kConverged: return TerminationType::kConverged;
    case InnerStatus::kIterationLimit: return TerminationType::kMaxInnerIterations;
    case InnerStatus::kTimeLimit: return TerminationType::kMaxCpuTime;
    case InnerStatus::kStalled: return TerminationType::kStalled;
    case InnerStatus::kUserStop: return TerminationType::kUserStop;
    case InnerStatus::kEvaluationError: return TerminationType::kEvaluationError;
    case InnerStatus::kRunaway: return TerminationType::kDiverging;
  }
  return TerminationType::kStalled;
}

}  // namespace

TerminationType EarlyEnd(const InnerSummary& inner, bool acceptable_stall, bool wall_passed,
                         std::string* message) {
  if (acceptable_stall) {
    *message = "stalled within the acceptable tolerances (||c|| and stationarity)";
    return TerminationType::kAcceptable;
  }
  if (inner.status == InnerStatus::kStalled && inner.evaluation_failed) {
    *message = "the model failed to evaluate at every trial point, down to the smallest step";
    return TerminationType::kEvaluationError;
  }
  const TerminationType type = inner.status == InnerStatus::kTimeLimit && wall_passed
                                   ? TerminationType::kMaxWallTime
                                   : FromInner(inner.status);
  *message = std::string("inner solver stopped: ") + ToString(type);
  return type;
}

void SummaryWriter::BeginSubproblem(int k, bool started_at_x0) {
  k_ = k;
  summary_.outer.push_back(OuterRecord());
  summary_.outer.back().started_at_x0 = started_at_x0;
}

void SummaryWriter::Record(double q_start, const InnerSummary& inner, PenaltyFunction* q,
                           const Iterate& x, long factorizations) {
  OuterRecord& r = summary_.outer.back();
  r.k = k_;
  r.beta = q->merit().beta();
  r.f = UserObjective(x.f);
  r.c_norm = x.c_norm();
  r.grad_q_norm = x.grad_q_norm;
  r.tau = inner.tau;
  r.violation_stationarity = ViolationStationarity(*q, x, q->workspace());
  r.q_start = q_start;
  r.q_end = x.Q(q->merit().beta());
  r.inner_status = inner.status;
  r.inner_iterations = inner.iterations;
  r.q_evals = q->counts().q_evals;
  r.grad_evals = q->counts().grad_evals;
  r.hess_evals = q->counts().hess_evals;
  r.hess_products = q->counts().hess_products;
  r.factorizations = factorizations;
  if (callbacks_.on_outer_iteration) callbacks_.on_outer_iteration(r);
}

bool SummaryWriter::Notify(const Iterate& x, const StepInfo& step, const PenaltyFunction& q,
                           const FeasibilityTolerance& tau, bool counted) {
  if (counted) ++iterations_;
  if (!callbacks_.on_iteration) return true;
  IterationInfo info;
  info.iter = iterations_;
  info.k = k_;
  info.beta = q.merit().beta();
  info.f = UserObjective(x.f);
  info.c_norm = x.c_norm();
  info.c_max = MaxNorm(q.layout().reduce(), x.c);
  info.grad_q_norm = x.grad_q_norm;
  info.grad_q_max = MaxNorm(q.layout().reduce(), x.grad_q);
  info.tau = tau(info.c_norm);
  info.step = step;
  info.x = x.x.data();
  info.n = q.layout().n_x();
  return callbacks_.on_iteration(info);
}

void SummaryWriter::ConcludeCounts(TerminationType type, const std::string& message,
                                   const PenaltyCounts& counts, const InnerSolver* inner) {
  summary_.termination = type;
  summary_.message = message;
  summary_.outer_iterations = static_cast<int>(summary_.outer.size());
  summary_.inner_iterations = iterations_;
  summary_.q_evals = counts.q_evals;
  summary_.grad_evals = counts.grad_evals;
  summary_.hess_evals = counts.hess_evals;
  summary_.hess_products = counts.hess_products;
  summary_.factorizations = inner ? inner->factorizations() : 0;
  summary_.corrections = inner ? inner->corrections() : 0;
  summary_.preconditioner = inner ? inner->preconditioner() : "";
}

// From the point x: with the beta of the last subproblem, y = lambda + beta c
// and grad Q there, Ipopt's bound multipliers, the measures.
void SummaryWriter::ConcludePoint(TerminationType type, PenaltyFunction* q, Iterate* x) {
  summary_.cpu_time = CpuSeconds() - start_cpu_;
  summary_.beta = q->merit().beta();
  const bool have_point = type != TerminationType::kInvalidOptions &&
                          type != TerminationType::kInvalidNumberAtStart;
  if (!have_point) {
    summary_.g.setZero(q->layout().m());
    summary_.c.setZero(q->layout().m());
    summary_.lambda.setZero(q->layout().m());
    summary_.z_l.setZero(q->layout().n_x());
    summary_.z_u.setZero(q->layout().n_x());
    return;
  }
  // A runaway restart grew beta for a subproblem that never came.
  if (type == TerminationType::kMaxOuterIterations && !summary_.outer.empty()) {
    summary_.beta = summary_.outer.back().beta;
  }
  q->merit().set_beta(summary_.beta);
  SetZeroLarge(&summary_.x, q->layout().n_x());
  summary_.x = x->x.head(q->layout().n_x());
  summary_.g = x->g;
  summary_.c = x->c;
  q->merit().FirstOrderMultipliers(*x, &summary_.lambda);
  summary_.f = x->f;
  summary_.c_norm = x->c_norm();
  summary_.c_max = MaxNorm(q->layout().reduce(), x->c);
  q->merit().FormGradient(x);
  summary_.grad_q_norm = x->grad_q_norm;
  BoundMultipliers(*q, *x);
  summary_.grad_q_max = 0.0;  // ||grad_x Q - z_l + z_u||_inf, no temporary
  for (int i = 0; i < q->layout().n_x(); ++i) {
    const double r = x->grad_q[i] - summary_.z_l[i] + summary_.z_u[i];
    summary_.grad_q_max = std::max(summary_.grad_q_max, std::abs(r));
  }
  summary_.grad_q_max = q->layout().reduce().Max(summary_.grad_q_max);
}

// Ipopt's bound multipliers from the x part of grad Q = grad f + J^T lambda:
// an entry on a bound whose gradient points out of the box (the entries the
// stationarity measure drops) gives that bound's multiplier (z >= 0), so that
// grad f + J^T lambda - z_L + z_U vanishes there.
void SummaryWriter::BoundMultipliers(const PenaltyFunction& q, const Iterate& x) {
  const int n = q.layout().n_x();
  SetZeroLarge(&summary_.z_l, n);
  SetZeroLarge(&summary_.z_u, n);
  if (!q.layout().has_bounds()) return;
  for (int i = 0; i < n; ++i) {
    const double g = x.grad_q[i];
    const double z = x.x[i];
    if (g > 0.0 && z <= q.layout().lower()[i]) summary_.z_l[i] = g;
    if (g < 0.0 && z >= q.layout().upper()[i]) summary_.z_u[i] = -g;
  }
}

}  // namespace qpm
