package bench

import (
	"strconv"
	"time"
)

// switchValue is a switch setting's value.
func switchValue(on bool) string {
	if on {
		return "ON"
	}
	return "OFF"
}

// runSettings are the settings a workload opens its database with: its
// own (the switch it compares), the sync delay that models a slow log,
// then the caller's, which win.
func runSettings(own map[string]string, syncDelay time.Duration, extra map[string]string) map[string]string {
	settings := make(map[string]string, len(own)+len(extra)+1)
	for k, v := range own {
		settings[k] = v
	}
	if syncDelay > 0 {
		settings["plrun_log_sync_delay_us"] = strconv.FormatInt(syncDelay.Microseconds(), 10)
	}
	for k, v := range extra {
		settings[k] = v
	}
	return settings
}
