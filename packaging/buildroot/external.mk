# SPDX-License-Identifier: MIT
# selfmon's BR2_EXTERNAL tree: its packages' make files.
include $(sort $(wildcard $(BR2_EXTERNAL_SELFMON_PATH)/package/*/*.mk))
