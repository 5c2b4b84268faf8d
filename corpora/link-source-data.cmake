# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -DSOURCE_DIR=... -DBINARY_DIR=... -P link-source-data.cmake
# Makes the build tree a data directory like <prefix>/share/specdec-lab: links <build>/corpora/NAME/models to
# the source tree's corpora/NAME/models, <build>/lessons to lessons/ and <build>/docs to docs/ (when the
# source tree has them).
file(GLOB _model_dirs LIST_DIRECTORIES true "${SOURCE_DIR}/corpora/*/models")
set(_links)
foreach(dir IN LISTS _model_dirs)
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${dir}")
  list(APPEND _links "${rel}")
endforeach()
if(IS_DIRECTORY "${SOURCE_DIR}/lessons")
  list(APPEND _links lessons)
endif()
if(IS_DIRECTORY "${SOURCE_DIR}/docs") # Help > User guide reads docs/user-guide.md and its images
  list(APPEND _links docs)
endif()
foreach(rel IN LISTS _links)
  set(link "${BINARY_DIR}/${rel}")
  if(NOT EXISTS "${link}" AND NOT IS_SYMLINK "${link}")
    get_filename_component(parent "${link}" DIRECTORY)
    file(MAKE_DIRECTORY "${parent}")
    file(CREATE_LINK "${SOURCE_DIR}/${rel}" "${link}" SYMBOLIC COPY_ON_ERROR)
  endif()
endforeach()
