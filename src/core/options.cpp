#include "qpm/core/options.hpp"

#include "qpm/core/option_table.hpp"

namespace qpm {

const char* ToString(InnerSolverType type) {
  switch (type) {
    case InnerSolverType::kGradientDescent: return "gradient-descent";
    case InnerSolverType::kTrustRegion: return "trust-region";
    case InnerSolverType::kLbfgs: return "lbfgs";
    case InnerSolverType::kInterior: return "interior";
  }
  return "unknown";
}

const char* ToString(Mode mode) {
  return mode == Mode::kPaper ? "paper" : "multipliers";
}

namespace {

bool Fail(std::string* why, const std::string& message) {
  if (why) *why = message;
  return false;
}

// "qpm_tr_max_radius = 0.5": the option's table name and its value in `o`.
std::string Show(const char* field, const Options& o) {
  const OptionEntry* e = FindOption(field);
  return e ? e->name + " = " + e->Format(e->get(o)) : std::string(field);
}

// "qpm_penalty_growth = 0.5 is out of range: must be > 1 (alpha)": the
// paper's symbol, when there is one, for readers of the paper.
bool InRange(const OptionEntry& e, const Options& o, std::string* why) {
  const double value = e.get(o);
  if (e.range.Contains(value)) return true;
  const std::string symbol = e.symbol.empty() ? "" : " (" + e.symbol + ")";
  return Fail(why, e.name + " = " + e.Format(value) + " is out of range: must be " +
                       e.range.ToString() + symbol);
}

// The checks that involve two fields; each field's own range is in the table.
bool FieldsAgree(const Options& o, std::string* why) {
  if (!(o.penalty_growth_max >= o.penalty_growth)) {
    return Fail(why, Show("penalty_growth_max", o) + " must be >= " + Show("penalty_growth", o));
  }
  if (!(o.multipliers.penalty_init_max >= o.multipliers.penalty_init_min)) {
    return Fail(why, Show("multipliers.penalty_init_max", o) + " must be >= " +
                         Show("multipliers.penalty_init_min", o));
  }
  if (o.mode == Mode::kPaper && o.penalty_init > 0.0 && o.penalty_init < 1.0) {
    return Fail(why, Show("penalty_init", o) + " must be 0 or >= 1 in the paper's mode (beta0)");
  }
  if (!(o.tr.max_radius >= o.tr.initial_radius)) {
    return Fail(why, Show("tr.max_radius", o) + " must be >= " + Show("tr.initial_radius", o));
  }
  if (!(o.tr.eta_shrink >= o.tr.eta_accept && o.tr.eta_shrink < o.tr.eta_expand)) {
    return Fail(why, "the trust region needs eta_accept <= eta_shrink < eta_expand, has " +
                         Show("tr.eta_accept", o) + ", " + Show("tr.eta_shrink", o) + ", " +
                         Show("tr.eta_expand", o));
  }
  return true;
}

}  // namespace

bool Options::IsValid(std::string* why) const {
  for (const OptionEntry& entry : OptionTable()) {
    if (!InRange(entry, *this, why)) return false;
  }
  return FieldsAgree(*this, why);
}

Options Options::Resolved() const {
  Options o = *this;
  if (o.tr.preconditioner == PreconditionerKind::kModeDefault) {
    o.tr.preconditioner = mode == Mode::kPaper ? PreconditionerKind::kNone : PreconditionerKind::kAuto;
  }
  if (o.tr.correction == CorrectionKind::kModeDefault) {
    o.tr.correction = mode == Mode::kPaper ? CorrectionKind::kNone : CorrectionKind::kSecondOrder;
  }
  if (o.tr.initial_radius == 0.0 && mode == Mode::kPaper) o.tr.initial_radius = kPapersInitialRadius;
  return o;
}

}  // namespace qpm
