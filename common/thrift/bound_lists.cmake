# Rewrites one generated Thrift C++ file so that every list is sized through
# ics::ResizeThriftList (common/rpc/decode_budget.h), which charges
# N * sizeof(element) to the decode budget before allocating, instead of a
# bare `list.resize(N)` with N taken from the wire.
#   cmake -DFILE=<generated .cpp> -P bound_lists.cmake
# Fails the build when the number of rewritten resizes differs from the
# number of list headers read, so a change in the generator's output cannot
# silently leave a list unbounded.
cmake_minimum_required(VERSION 3.22)  # the project's policies, in script mode too
file(READ "${FILE}" text)

string(REGEX MATCHALL "readListBegin\\(" list_reads "${text}")
list(LENGTH list_reads n_lists)

set(resize_re "([^\n ;{}][^\n;{}]*)\\.resize\\((_size[0-9]+)\\);")
# Counted without the statement's ';', which a CMake list would split on.
string(REGEX MATCHALL "\\.resize\\(_size[0-9]+\\)" resizes "${text}")
list(LENGTH resizes n_resizes)
if(NOT n_lists EQUAL n_resizes)
  message(FATAL_ERROR "${FILE}: ${n_lists} list headers but ${n_resizes} list resizes; "
                      "update common/thrift/bound_lists.cmake for this Thrift version")
endif()
if(n_lists EQUAL 0)
  return()
endif()

string(REGEX REPLACE "${resize_re}" "::ics::ResizeThriftList(\\1, \\2);" text "${text}")
string(REGEX MATCHALL "ResizeThriftList\\(" rewritten "${text}")
list(LENGTH rewritten n_rewritten)
if(NOT n_rewritten EQUAL n_lists)
  message(FATAL_ERROR "${FILE}: rewrote ${n_rewritten} of ${n_lists} list resizes")
endif()
file(WRITE "${FILE}" "#include \"common/rpc/decode_budget.h\"\n${text}")
