# Pipes requests through a Bullet exec client in both modes, as slidecheck does: a describe, a
# drop onto SCENE, a malformed line; checks one answer line per request, in order, and exit 0.
# Usage: cmake -DCMD=client -DPRECISION=float|double -DSCENE=floor.scene -DDIR=work_dir -P exec_pipe.cmake
set(requests ${DIR}/pipe-requests-${PRECISION}.jsonl)
file(WRITE ${requests}
  "{\"describe\": true}\n"
  "{\"scene\": \"${SCENE}\", \"query\": {\"id\": \"drop\", \"start\": [\"0x1p-1\", \"-0x1p+0\", \"0x1p+0\"], "
  "\"displacement\": [0, 0, 0], \"gravity\": [0, 0, \"-0x1p-2\"], \"radius\": \"0x1p-1\", \"frames\": 3}, "
  "\"precision\": \"${PRECISION}\"}\n"
  "not json\n")
foreach(mode sweep kcc)
  execute_process(COMMAND ${CMD} --mode ${mode} INPUT_FILE ${requests} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--mode ${mode}: exit code ${rc}\n${err}")
  endif()
  # Split by hand: answers hold brackets, which CMake lists do not split inside.
  string(REGEX MATCHALL "\n" newlines "${out}")
  list(LENGTH newlines n)
  if(NOT n EQUAL 3)
    message(FATAL_ERROR "--mode ${mode}: expected 3 answer lines, got ${n}:\n${out}\nstderr:\n${err}")
  endif()
  foreach(name describe drop bad)
    string(FIND "${out}" "\n" end)
    string(SUBSTRING "${out}" 0 ${end} ${name})
    math(EXPR next "${end} + 1")
    string(SUBSTRING "${out}" ${next} -1 out)
  endforeach()
  if(NOT describe MATCHES "^\\{\"format\":\"slidecheck-exec 1\",\"implementation\":\"bullet_${mode}\",\"precisions\":\\[\"${PRECISION}\"\\]")
    message(FATAL_ERROR "--mode ${mode}: describe answer: ${describe}")
  endif()
  # Seven positions (start, then move and gravity per frame), the last resting on the floor:
  # touching it (z = r = 0.5) or, for the controller, its allowed 0.04 inside (z = 0.46).
  string(FIND "${drop}" "]]," end)
  string(SUBSTRING "${drop}" 0 ${end} positions)
  string(REPLACE "],[" "|" marks "${positions}")  # one mark between two positions
  string(REGEX REPLACE "[^|]" "" marks "${marks}")
  string(LENGTH "${marks}" gaps)
  if(NOT drop MATCHES "^\\{\"query_id\":\"drop\",\"positions\":" OR NOT gaps EQUAL 6
     OR NOT positions MATCHES "\"(0x1p-1|0x1\\.d70a3[0-9a-f]*p-2)\"$")
    message(FATAL_ERROR "--mode ${mode}: drop answer: ${drop}")
  endif()
  if(NOT bad MATCHES "^\\{\"error\":\"invalid JSON")
    message(FATAL_ERROR "--mode ${mode}: malformed line: ${bad}")
  endif()
endforeach()
message(STATUS "both modes answered every request")
