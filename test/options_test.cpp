// The option table (qpm/core/option_table.hpp) and what is derived from it:
// Options::IsValid, the Ipopt registration and QpmApplication::ReadOptions.
#define BOOST_TEST_MODULE options
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <IpRegOptions.hpp>

#include "qpm/core/option_table.hpp"
#include "qpm/ipopt/application.hpp"
#include "ipopt/ipopt_options.hpp"
#include "hs071/hs071_nlp.hpp"
#include "scratch_dir.hpp"

using qpm::OptionEntry;
using qpm::OptionType;
using Ipopt::SmartPtr;

namespace {

double Unit(double bound) { return std::max(1.0, std::abs(bound)); }

// Values just outside the entry's range: the bound itself when it is
// strict, one unit past it otherwise (integers stay integral).
std::vector<double> OutOfRange(const OptionEntry& e) {
  std::vector<double> bad;
  const qpm::OptionRange& r = e.range;
  if (r.has_lower) bad.push_back(r.lower_strict ? r.lower : r.lower - Unit(r.lower));
  if (r.has_upper) bad.push_back(r.upper_strict ? r.upper : r.upper + Unit(r.upper));
  return bad;
}

// A value other than the default, valid for every entry of the table.
double OtherValue(const OptionEntry& e) {
  const double d = e.Default();
  if (!e.choices.empty()) return std::fmod(d + 1.0, static_cast<double>(e.choices.size()));
  if (e.range.has_upper) return e.type == OptionType::kInteger ? d - 1.0 : d / 2.0;
  return d == 0.0 ? 5.0 : 2.0 * d;
}

qpm::Options Read(qpm::QpmApplication& app) {
  qpm::Options o;
  qpm::TnlpOptions t;
  std::string error;
  BOOST_REQUIRE_MESSAGE(app.ReadOptions(&o, &t, &error), error);
  return o;
}

}  // namespace

BOOST_AUTO_TEST_CASE(DefaultOptionsAreValid) {
  std::string why;
  BOOST_TEST(qpm::Options().IsValid(&why), why);
}

BOOST_AUTO_TEST_CASE(EachEntryHasAUniqueNameAndItsOwnField) {
  std::set<std::string> names, fields;
  for (const OptionEntry& e : qpm::OptionTable()) {
    BOOST_TEST(names.insert(e.name).second, e.name);
    BOOST_TEST(fields.insert(e.field).second, e.field);
    BOOST_TEST(!e.meaning.empty(), e.name);
    BOOST_TEST(e.registered == (e.name.rfind("qpm_", 0) == 0), e.name);
    qpm::Options o;
    const double value = OtherValue(e);
    e.set(&o, value);
    BOOST_TEST(e.get(o) == value, e.name);
    for (const OptionEntry& other : qpm::OptionTable()) {  // the accessor touches one field
      if (&other == &e) continue;
      BOOST_TEST(other.get(o) == other.Default(), e.name + " moved " + other.name);
    }
  }
}

BOOST_AUTO_TEST_CASE(IsValidNamesTheOptionAndValueOutsideEachRange) {
  int checked = 0;
  for (const OptionEntry& e : qpm::OptionTable()) {
    for (double bad : OutOfRange(e)) {
      qpm::Options o;
      e.set(&o, bad);
      std::string why;
      BOOST_TEST(!o.IsValid(&why), e.name << " = " << bad);
      const std::string symbol = e.symbol.empty() ? "" : " (" + e.symbol + ")";
      BOOST_TEST(why == e.name + " = " + e.Format(bad) + " is out of range: must be " +
                            e.range.ToString() + symbol);
      ++checked;
    }
  }
  BOOST_TEST(checked >= 40);
}

BOOST_AUTO_TEST_CASE(IsValidRejectsNotANumber) {
  qpm::Options o;
  o.tr.eta_accept = std::nan("");
  std::string why;
  BOOST_TEST(!o.IsValid(&why));
  BOOST_TEST(why == "tr.eta_accept = nan is out of range: must be in (0, 1)");
}

BOOST_AUTO_TEST_CASE(PenaltyGrowthMessageReadsAsInTheIssue) {
  qpm::Options o;
  o.penalty_growth = 0.5;
  std::string why;
  BOOST_TEST(!o.IsValid(&why));
  BOOST_TEST(why == "qpm_penalty_growth = 0.5 is out of range: must be > 1 (alpha)");
}

BOOST_AUTO_TEST_CASE(CrossFieldChecksNameBothOptions) {
  std::string why;
  qpm::Options o;
  o.penalty_growth_max = 1.1;
  BOOST_TEST(!o.IsValid(&why));
  BOOST_TEST(why == "qpm_penalty_growth_max = 1.1 must be >= qpm_penalty_growth = 1.2");
  o = qpm::Options();
  o.tr.initial_radius = 2e3;
  BOOST_TEST(!o.IsValid(&why));
  BOOST_TEST(why == "qpm_tr_max_radius = 1000 must be >= tr.initial_radius = 2000");
  o = qpm::Options();
  o.tr.eta_shrink = 0.05;
  BOOST_TEST(!o.IsValid(&why));
  BOOST_TEST(why.find("tr.eta_shrink = 0.05") != std::string::npos, why);
}

BOOST_AUTO_TEST_CASE(FormatsNumbersShortly) {
  BOOST_TEST(qpm::FormatNumber(1e-8) == "1e-8");
  BOOST_TEST(qpm::FormatNumber(1e20) == "1e20");
  BOOST_TEST(qpm::FormatNumber(0.25) == "0.25");
  BOOST_TEST(qpm::FormatNumber(500) == "500");
  BOOST_TEST(qpm::FormatNumber(1.2) == "1.2");
  BOOST_TEST(qpm::FormatNumber(1e6) == "1e6");
  BOOST_TEST(qpm::FormatNumber(1e4) == "1e4");
  BOOST_TEST(qpm::FormatNumber(1e-4) == "1e-4");
  BOOST_TEST(qpm::FormatNumber(0.001) == "0.001");
  BOOST_TEST(qpm::FormatNumber(-1e19) == "-1e19");
  BOOST_TEST(qpm::FindOption("qpm_max_inner_iter")->DefaultText() == "10000000");
}

BOOST_AUTO_TEST_CASE(InnerSolverChoicesFollowTheEnum) {
  const OptionEntry* e = qpm::FindOption("qpm_inner_solver");
  BOOST_REQUIRE(e != nullptr);
  for (std::size_t i = 0; i < e->choices.size(); ++i) {
    BOOST_TEST(e->choices[i].name == qpm::ToString(static_cast<qpm::InnerSolverType>(i)));
  }
}

// Each registered entry is an Ipopt option of the same type, range, choices
// and default.
BOOST_AUTO_TEST_CASE(RegistrationMatchesTheTable) {
  SmartPtr<Ipopt::RegisteredOptions> registry = new Ipopt::RegisteredOptions();
  qpm::QpmApplication::RegisterQpmOptions(registry);
  for (const OptionEntry& e : qpm::OptionTable()) {
    const SmartPtr<const Ipopt::RegisteredOption> option = registry->GetOption(e.name);
    BOOST_TEST(Ipopt::IsValid(option) == e.registered, e.name);
    if (!e.registered) continue;
    BOOST_TEST(option->ShortDescription() == e.meaning);
    if (e.type == OptionType::kNumber) {
      BOOST_TEST(option->Type() == Ipopt::OT_Number, e.name);
      BOOST_TEST(option->DefaultNumber() == e.Default(), e.name);
      BOOST_TEST(option->HasLower() == e.range.has_lower, e.name);
      if (e.range.has_lower) BOOST_TEST(option->LowerNumber() == e.range.lower, e.name);
      if (e.range.has_lower) BOOST_TEST(option->LowerStrict() == e.range.lower_strict, e.name);
      BOOST_TEST(option->HasUpper() == e.range.has_upper, e.name);
    } else if (e.type == OptionType::kInteger) {
      BOOST_TEST(option->Type() == Ipopt::OT_Integer, e.name);
      BOOST_TEST(option->DefaultInteger() == e.Default(), e.name);
      BOOST_TEST(option->HasLower() == e.range.has_lower, e.name);
    } else {
      BOOST_TEST(option->Type() == Ipopt::OT_String, e.name);
      BOOST_TEST(option->DefaultString() == e.DefaultText(), e.name);
      const auto valid = option->GetValidStrings();
      BOOST_REQUIRE_EQUAL(valid.size(), e.choices.size());
      for (std::size_t i = 0; i < valid.size(); ++i) {
        BOOST_TEST(valid[i].value_ == e.choices[i].name, e.name);
      }
    }
  }
}

// Every choice of every enum and bool option, set through Ipopt, reaches
// its field; numbers and integers likewise.
BOOST_AUTO_TEST_CASE(EachRegisteredOptionRoundTripsThroughReadOptions) {
  for (const OptionEntry& e : qpm::OptionTable()) {
    if (!e.registered) continue;
    SmartPtr<qpm::QpmApplication> untouched = new qpm::QpmApplication(false);
    BOOST_TEST(e.get(Read(*untouched)) == e.Default(), e.name);
    for (std::size_t i = 0; i < e.choices.size(); ++i) {
      SmartPtr<qpm::QpmApplication> app = new qpm::QpmApplication(false);
      BOOST_REQUIRE(app->Options()->SetStringValue(e.name, e.choices[i].name));
      BOOST_TEST(e.get(Read(*app)) == static_cast<double>(i), e.name << " " << e.choices[i].name);
    }
    if (!e.choices.empty()) continue;
    SmartPtr<qpm::QpmApplication> app = new qpm::QpmApplication(false);
    const double value = OtherValue(e);
    const auto index = static_cast<Ipopt::Index>(value);
    const bool set = e.type == OptionType::kNumber ? app->Options()->SetNumericValue(e.name, value)
                                                   : app->Options()->SetIntegerValue(e.name, index);
    BOOST_REQUIRE(set);
    BOOST_TEST(e.get(Read(*app)) == value, e.name);
  }
}

// The Ipopt strings map onto the enumerators they always did.
BOOST_AUTO_TEST_CASE(ChoicesMapOntoTheRightEnumerators) {
  SmartPtr<qpm::QpmApplication> app = new qpm::QpmApplication(false);
  app->Options()->SetStringValue("qpm_inner_solver", "trust-region");
  app->Options()->SetStringValue("qpm_penalty_growth_mode", "adaptive");
  app->Options()->SetStringValue("qpm_gd_trial_step", "barzilai-borwein");
  app->Options()->SetStringValue("qpm_preconditioner", "penalty");
  app->Options()->SetStringValue("qpm_extrapolate", "yes");
  app->Options()->SetStringValue("qpm_lbfgs_warm_start", "yes");
  const qpm::Options o = Read(*app);
  BOOST_TEST((o.inner_solver == qpm::InnerSolverType::kTrustRegion));
  BOOST_TEST((o.penalty_growth_mode == qpm::PenaltyGrowthMode::kAdaptive));
  BOOST_TEST((o.gd.trial_step == qpm::GdTrialStep::kBarzilaiBorwein));
  BOOST_TEST((o.tr.preconditioner == qpm::PreconditionerKind::kPenalty));
  BOOST_TEST(o.extrapolate);
  BOOST_TEST(o.lbfgs.warm_start);
  app->Options()->SetStringValue("qpm_preconditioner", "jacobi");
  BOOST_TEST((Read(*app).tr.preconditioner == qpm::PreconditionerKind::kJacobi));
}

// Help texts quote other options' defaults from the struct, not literals.
BOOST_AUTO_TEST_CASE(HelpTextsQuoteTheDefaults) {
  const qpm::Options d;
  const OptionEntry* mode = qpm::FindOption("qpm_penalty_growth_mode");
  const std::string adaptive = mode->choices.at(1).meaning;
  const std::string cheap = std::to_string(d.cheap_subproblem);
  const std::string costly =
      std::to_string(qpm::Options::kCostlySubproblemFactor * d.cheap_subproblem);
  BOOST_TEST(adaptive.find("<= " + cheap + " inner") != std::string::npos, adaptive);
  BOOST_TEST(adaptive.find("> " + costly + ")") != std::string::npos, adaptive);
  const OptionEntry* runaway = qpm::FindOption("qpm_runaway_factor");
  BOOST_TEST(runaway->details.find(std::to_string(d.max_runaway_restarts) + " restarts") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(IpoptOptionsReadAreIpoptsOwn) {
  SmartPtr<qpm::QpmApplication> app = new qpm::QpmApplication(false);
  for (const qpm::IpoptOptionUse& use : qpm::IpoptOptionsRead()) {
    BOOST_TEST(Ipopt::IsValid(app->RegOptions()->GetOption(use.name)), use.name);
    BOOST_TEST(std::string(use.name).rfind("qpm_", 0) != 0u, use.name);
  }
}

namespace {

// An OptionsList that notes the name of every option read from it.
class RecordingOptions : public Ipopt::OptionsList {
 public:
  using Ipopt::OptionsList::OptionsList;
  mutable std::set<std::string> read;
  bool GetStringValue(const std::string& tag, std::string& value,
                      const std::string& prefix) const override {
    read.insert(tag);
    return OptionsList::GetStringValue(tag, value, prefix);
  }
  bool GetEnumValue(const std::string& tag, Ipopt::Index& value,
                    const std::string& prefix) const override {
    read.insert(tag);
    return OptionsList::GetEnumValue(tag, value, prefix);
  }
  bool GetBoolValue(const std::string& tag, bool& value, const std::string& prefix) const override {
    read.insert(tag);
    return OptionsList::GetBoolValue(tag, value, prefix);
  }
  bool GetNumericValue(const std::string& tag, Ipopt::Number& value,
                       const std::string& prefix) const override {
    read.insert(tag);
    return OptionsList::GetNumericValue(tag, value, prefix);
  }
  bool GetIntegerValue(const std::string& tag, Ipopt::Index& value,
                       const std::string& prefix) const override {
    read.insert(tag);
    return OptionsList::GetIntegerValue(tag, value, prefix);
  }
};

}  // namespace

// IpoptOptionsRead() (the docs, `qpm -=`) against what QpmApplication reads:
// every Ipopt option a solve reads is listed, and every listed one is read by
// the solve or by Initialize() (the journal and option-file options).
BOOST_AUTO_TEST_CASE(IpoptOptionsReadListsExactlyWhatASolveReads) {
  SmartPtr<qpm::QpmApplication> registry = new qpm::QpmApplication(false);
  SmartPtr<RecordingOptions> list = new RecordingOptions();
  list->SetRegisteredOptions(registry->RegOptions());
  list->SetJournalist(registry->Jnlst());
  SmartPtr<qpm::QpmApplication> app =
      new qpm::QpmApplication(registry->RegOptions(), GetRawPtr(list), registry->Jnlst());
  const qpm_test::ScratchDir scratch;
  app->Options()->SetStringValue("option_file_name", scratch.File("none.opt"));
  app->Options()->SetStringValue("output_file", scratch.File("log.txt"));
  app->Options()->SetIntegerValue("print_level", 0);
  BOOST_REQUIRE(app->Initialize() == Ipopt::Solve_Succeeded);
  const std::set<std::string> by_initialize = list->read;
  list->read.clear();
  SmartPtr<Ipopt::TNLP> nlp = new Hs071Nlp();
  BOOST_REQUIRE(app->OptimizeTNLP(nlp) == Ipopt::Solve_Succeeded);
  std::set<std::string> listed;
  for (const qpm::IpoptOptionUse& use : qpm::IpoptOptionsRead()) listed.insert(use.name);
  for (const std::string& name : list->read) {
    if (name.rfind("qpm_", 0) == 0) continue;
    BOOST_TEST(listed.count(name) == 1u, name << " is read by a solve but not listed");
  }
  for (const std::string& name : listed) {
    BOOST_TEST(list->read.count(name) + by_initialize.count(name) >= 1u,
               name << " is listed but never read");
  }
}
