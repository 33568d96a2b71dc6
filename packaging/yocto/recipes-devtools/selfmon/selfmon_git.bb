# SPDX-License-Identifier: MIT
# selfmon from git: by default the tree this layer lives in (its branch
# main, at its newest commit); set SELFMON_GIT_URI and SRCREV in local.conf
# for another clone or a fixed commit.
require selfmon.inc

SELFMON_GIT_URI ??= "git://${SELFMON_TREE};protocol=file;branch=main"
SRC_URI = "${SELFMON_GIT_URI}"
SRCREV ??= "${AUTOREV}"
PV = "0.1.0+git${SRCPV}"
S = "${WORKDIR}/git"
