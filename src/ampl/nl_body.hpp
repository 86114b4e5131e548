// The body of an AMPL .nl file (everything after the ten header lines),
// walked as the ASL's pfgh_read walks it, before pfgh_read sees it.
//
// Why: pfgh_read trusts the file. Counts inside the body size allocations
// (a sum of 2e9 terms asks malloc for 16 GB, and the ASL's malloc wrapper
// exit()s when that fails); indices go unchecked (a Jacobian entry's
// variable, a function number); a constraint, objective or common
// expression whose segment is missing leaves a null expression that the
// reader dereferences at the end of the file. CheckNlBody reads the same
// tokens the same way (text: ascanf's lines; binary: bscanf's 4-byte ints,
// 8-byte doubles) and refuses, with one line of text, a body where
//   - a segment or an expression node is malformed, of an unknown kind, or
//     ends early (the ASL would refuse these too, but some by exiting);
//   - an index is out of its range, or a J or k segment is repeated;
//   - a count inside the body (terms of a sum, arguments, string length,
//     linear terms) exceeds what the rest of the file can hold, 2 bytes
//     per item;
//   - a constraint, objective or common expression has no segment, the
//     variable (b) or constraint (r) bounds are missing, or the Jacobian
//     entries disagree with the header's count or the k segment's columns;
//   - expressions nest deeper than kMaxNlDepth (the ASL's reader and its
//     derivative set-up recurse once per level).
// It builds nothing: its memory is a few bytes per variable, constraint and
// common expression.
#ifndef QPM_SRC_AMPL_NL_BODY_HPP_
#define QPM_SRC_AMPL_NL_BODY_HPP_

#include <string>

#include "nl_header.hpp"

namespace qpm {
namespace ampl_internal {

constexpr int kMaxNlDepth = 10000;  // deepest expression accepted

// Checks the body of `file`, whose header ReadNlHeader accepted as `header`.
// False with `error` set to one line ("<file>: <what>").
bool CheckNlBody(const std::string& file, const NlHeader& header, std::string* error);

}  // namespace ampl_internal
}  // namespace qpm

#endif  // QPM_SRC_AMPL_NL_BODY_HPP_
