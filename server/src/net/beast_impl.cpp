// Asio and Beast compiled once (BOOST_*_SEPARATE_COMPILATION) instead of in
// every translation unit: keeps the build lean on two cores.
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
