# Writes OUTPUT, a C++ source defining `std::string_view NAMESPACE::FUNCTION()`
# that returns the bytes of INPUT (run with cmake -P at build time, so an
# edit of INPUT rebuilds the library without reconfiguring).
file(READ "${INPUT}" content HEX)
string(LENGTH "${content}" hex_length)
math(EXPR size "${hex_length} / 2")
# Bytes, not a string literal: no escaping, no limit on a literal's length.
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${content}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by embed_file.cmake; do not edit.\n"
  "#include <string_view>\n\n"
  "namespace ${NAMESPACE} {\n"
  "namespace {\n"
  "constexpr char kBytes[] = {${bytes} '\\0'};\n"
  "}  // namespace\n"
  "std::string_view ${FUNCTION}() { return {kBytes, ${size}}; }\n"
  "}  // namespace ${NAMESPACE}\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
