# fuzz/harnesses.cmake — reads fuzz/harnesses.txt: sets TC_FUZZ_HARNESSES (the names) and, per
# name, TC_FUZZ_SEEDS_<name> (every seed and regression directory, absolute).
get_filename_component(TC_FUZZ_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/harnesses.txt tc_fuzz_lines REGEX "^[a-z]")
set(TC_FUZZ_HARNESSES "")
foreach(line ${tc_fuzz_lines})
  string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
  list(POP_FRONT fields name)
  list(APPEND TC_FUZZ_HARNESSES ${name})
  set(TC_FUZZ_SEEDS_${name} ${TC_FUZZ_ROOT}/fuzz/corpus/${name} ${TC_FUZZ_ROOT}/fuzz/regressions/${name})
  foreach(extra ${fields})
    list(APPEND TC_FUZZ_SEEDS_${name} ${TC_FUZZ_ROOT}/${extra})
  endforeach()
endforeach()
