#ifndef QPM_TEST_NL_BINARY_HPP_
#define QPM_TEST_NL_BINARY_HPP_

#include <string>

namespace qpm_test {

// Reads the text .nl `text_nl` with the ASL and writes it as the binary
// binary_stub.nl (fg_write). False if either step fails.
bool WriteBinaryNl(const std::string& text_nl, const std::string& binary_stub);

}  // namespace qpm_test

#endif  // QPM_TEST_NL_BINARY_HPP_
