# install.cmake: what `cmake --install` puts where, and the Debian package
# (CPack), included at the end of CMakeLists.txt. docs/install.md says how to
# use it; tests/deb_e2e.sh builds, installs and purges the package.
#
#   bin/chartered                       the program
#   lib/<multiarch>/libchartered.so.*   rules + bots, only ch_* exported
#   lib/<multiarch>/libchartered.a      the same objects, static
#   lib/<multiarch>/pkgconfig/chartered.pc
#   include/chartered.h
#   share/chartered/web, i18n, rules,   the browser client, the catalogues,
#                   data                 the rules texts, boards and arrangements
#   share/man/man1/chartered.1, man5/chartered-formats.5
#   share/doc/chartered/                 README, CHANGELOG, LICENSE, copyright
#                                        (DEP-5), docs, examples
#   lib/python3/dist-packages/chartered  the Python package
#   share/chartered/haproxy.cfg          HAProxy in front of three nodes
#                                        (made from packaging/haproxy.cfg.in)
#   lib/systemd/system/chartered.service, chartered@.service (a cluster
#                   node), /etc/chartered/chartered.conf, cluster.conf,
#                   node-a.conf, node-b.conf, node-c.conf
#                                        (with -DCH_INSTALL_SERVICE=ON, the
#                                        default when the prefix is /usr)

if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(ch_service_default ON)
else()
  set(ch_service_default OFF)
endif()
option(CH_INSTALL_SERVICE "Install the systemd unit and /etc/chartered" ${ch_service_default})

install(TARGETS chartered_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS chartered_shared chartered_static
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/chartered.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(CH_PC_PREFIX /usr)
else()
  file(RELATIVE_PATH ch_pc_up ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
  string(REGEX REPLACE "/$" "" ch_pc_up "${ch_pc_up}")
  set(CH_PC_PREFIX "\${pcfiledir}/${ch_pc_up}")
endif()
configure_file(${CMAKE_SOURCE_DIR}/packaging/chartered.pc.in ${CMAKE_BINARY_DIR}/chartered.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/chartered.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/web/ DESTINATION ${CMAKE_INSTALL_DATADIR}/chartered/web
        PATTERN "README.md" EXCLUDE)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/data/i18n/ DESTINATION ${CMAKE_INSTALL_DATADIR}/chartered/i18n
        PATTERN "README.md" EXCLUDE)
# the rules pages of the browser client, served beside the catalogues (/rules/)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/data/rules/ DESTINATION ${CMAKE_INSTALL_DATADIR}/chartered/rules
        PATTERN "README.md" EXCLUDE)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/data/boards ${CMAKE_SOURCE_DIR}/data/arrangements
        DESTINATION ${CMAKE_INSTALL_DATADIR}/chartered/data PATTERN "README.md" EXCLUDE)

install(FILES ${CMAKE_SOURCE_DIR}/man/chartered.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/man/chartered-formats.5 DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/CHANGELOG.md
              ${CMAKE_SOURCE_DIR}/LICENSE
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Debian's machine-readable copyright file (DEP-5): the MIT license of the
# code and the games' credits as their rulebooks print them; in the .deb it
# is /usr/share/doc/chartered/copyright, where Debian policy wants it.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
# (not docs/README.md, the documents' index in the source tree: it would take the
# place of the project's README.md)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        REGEX "/docs/README\\.md$" EXCLUDE)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
        PATTERN "__pycache__" EXCLUDE)

# HAProxy in front of the nodes a, b, c of chartered@.service as the package's
# /etc/chartered/node-*.conf place them (docs/deploy.md "A cluster"), made
# from the template scripts/cluster.sh and the cluster tests fill in too.
# The global section is Debian's haproxy.cfg's (syslog, chroot, the stats
# socket, user haproxy) with room for 20,000 connections.
set(HAPROXY_GLOBAL "    log /dev/log local0
    log /dev/log local1 notice
    chroot /var/lib/haproxy
    stats socket /run/haproxy/admin.sock mode 660 level admin
    stats timeout 30s
    user haproxy
    group haproxy
    daemon
    maxconn 20000")
set(HAPROXY_BIND ":80")
set(HAPROXY_RULES "")
set(HAPROXY_SERVERS "")
set(ch_port 8081)
foreach(ch_node a b c)
  string(APPEND HAPROXY_RULES "    use-server ${ch_node} if { url_param(node) -m str ${ch_node} }\n")
  string(APPEND HAPROXY_SERVERS "    server ${ch_node} 127.0.0.1:${ch_port}\n")
  math(EXPR ch_port "${ch_port} + 1")
endforeach()
string(STRIP "${HAPROXY_RULES}" HAPROXY_RULES)
set(HAPROXY_RULES "    ${HAPROXY_RULES}")
string(STRIP "${HAPROXY_SERVERS}" HAPROXY_SERVERS)
set(HAPROXY_SERVERS "    ${HAPROXY_SERVERS}")
configure_file(${CMAKE_SOURCE_DIR}/packaging/haproxy.cfg.in ${CMAKE_BINARY_DIR}/packaging/haproxy.cfg @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/packaging/haproxy.cfg DESTINATION ${CMAKE_INSTALL_DATADIR}/chartered)

if(CH_INSTALL_SERVICE)
  install(FILES ${CMAKE_SOURCE_DIR}/packaging/chartered.service
                ${CMAKE_SOURCE_DIR}/packaging/chartered@.service
          DESTINATION lib/systemd/system)
  # readable by all: the service's made-up user reads them (a database
  # password goes in /etc/chartered/secrets, which the package does not ship)
  install(FILES ${CMAKE_SOURCE_DIR}/packaging/chartered.conf
                ${CMAKE_SOURCE_DIR}/packaging/cluster.conf
                ${CMAKE_SOURCE_DIR}/packaging/node-a.conf
                ${CMAKE_SOURCE_DIR}/packaging/node-b.conf
                ${CMAKE_SOURCE_DIR}/packaging/node-c.conf
          DESTINATION ${CMAKE_INSTALL_FULL_SYSCONFDIR}/chartered)
endif()

# The Python package (docs/python.md) where Debian's python3 finds it; it opens
# the libchartered.so.0 of its own prefix (else the system's). Its cffi
# declarations are generated from chartered.h at build time
# (python/chartered/_cdef.py writes _cdecl.py) and installed with it, so that
# the installed package reads no header at import: under another prefix
# (`cmake --install --prefix DIR`) it could not find one (issue 28).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/chartered DESTINATION lib/python3/dist-packages
        PATTERN "__pycache__" EXCLUDE)
find_program(CH_PYTHON3 python3)
if(CH_PYTHON3)
  set(ch_cdecl ${CMAKE_BINARY_DIR}/python/chartered/_cdecl.py)
  add_custom_command(OUTPUT ${ch_cdecl}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/python/chartered
    COMMAND ${CH_PYTHON3} ${CMAKE_SOURCE_DIR}/python/chartered/_cdef.py
            ${CMAKE_SOURCE_DIR}/include/chartered.h ${ch_cdecl} ${CMAKE_INSTALL_LIBDIR}
    DEPENDS ${CMAKE_SOURCE_DIR}/include/chartered.h ${CMAKE_SOURCE_DIR}/python/chartered/_cdef.py
    COMMENT "Generating the Python package's cffi declarations (_cdecl.py)")
  add_custom_target(chartered_python_cdecl ALL DEPENDS ${ch_cdecl})
  install(FILES ${ch_cdecl} DESTINATION lib/python3/dist-packages/chartered)
else()
  message(WARNING "python3 not found: the installed Python package will read "
                  "chartered.h at import (set CHARTERED_HEADER under another prefix)")
endif()

# ---- the Debian package: cpack -G DEB (in a build with prefix /usr) --------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME chartered)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "board games Chartered: rules engine, bots, game server and terminal game")
set(CPACK_PACKAGE_CONTACT "chartered maintainers <chartered@example.invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # chartered_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"The digital edition of Chartered: Building Amsterdam and Chartered: The
Golden Age: libchartered (the rules engine and bots, C API, pkg-config
chartered), the chartered program (scripting commands, terminal game,
bot tournaments and analysis) and its game server with a browser client,
run as the systemd service chartered.service. Chartered: Building Amsterdam is by Alexander Kneepkens & Arnold van
Binsbergen (authors), cover artist Odysseas Stamoglou, artist Nicholas
Westgård, graphic design Vicky Trouerbach; both games are published by
Jolly Dutch. The code is under the MIT license
(/usr/share/doc/chartered/copyright).")
# dpkg-shlibdeps declares the libraries the program links (jansson,
# libwebsockets, SQLite, libev, libsodium, ...); libwebsockets loads its libev
# plugin at run time, which no linker sees, so it is named here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# a shlibs file for libchartered.so.0, and dpkg's ldconfig trigger
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libwebsockets-evlib-ev")
# librsvg2-bin: analyze's PNG plots; sqlite3: docs/deploy.md's look into the
# database; haproxy and postgresql: a cluster
# (docs/deploy.md), the Python package: python3-cffi, python3-numpy
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "librsvg2-bin, sqlite3")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "haproxy, postgresql, python3-cffi, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_SOURCE_DIR}/packaging/debian/postinst
    ${CMAKE_SOURCE_DIR}/packaging/debian/prerm
    ${CMAKE_SOURCE_DIR}/packaging/debian/postrm
    ${CMAKE_SOURCE_DIR}/packaging/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
