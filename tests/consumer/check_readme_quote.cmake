# Fails when README.md's copy of examples/saxpy.cpp differs from the file, so the program
# the README shows is always the one the tests build and run.
# Inputs: -DREADME= -DQUOTED=(the quoted file)
file(READ "${README}" readme)
file(READ "${QUOTED}" quoted)
string(FIND "${readme}" "```cpp\n${quoted}```" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md does not quote ${QUOTED} as it is: update the README's copy")
endif()
