#include "core/outer/path_extrapolation.hpp"

namespace qpm {

bool PathExtrapolation::Try(PenaltyFunction* q, SavedPoints* points) const {
  if (previous_z_.size() == 0 || last_z_.size() == 0) return false;
  const double beta = q->merit().beta();
  const double s = (1.0 / beta - 1.0 / last_beta_) / (1.0 / last_beta_ - 1.0 / previous_beta_);
  Iterate& trial = points->spare();
  trial.x = last_z_ + s * (last_z_ - previous_z_);
  q->layout().Project(trial.x);
  if (!q->EvaluateValues(&trial) || !(trial.Q(beta) < points->current().Q(beta))) return false;
  if (!q->EvaluateDerivatives(&trial)) return false;
  points->AdoptSpare();
  return true;
}

}  // namespace qpm
