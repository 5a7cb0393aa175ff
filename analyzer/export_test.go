package analyzer

// SettingsKey is settingsKey, for tests that open a history themselves.
func SettingsKey(o *Options) string { return o.settingsKey() }
