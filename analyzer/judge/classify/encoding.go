package classify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"augur/analyzer/judge/category"
)

// EncodingVersion is the version of the encoding of jobs and verdicts.
// Decoders refuse any other version, and any field they do not know: a
// process that makes jobs and the processes that run them must agree on
// what a job and a verdict are, or their verdicts would differ. Version 2:
// classification on input paths, with tight pairs and self-checked
// verdicts (Options.AroundInputs, Verdict.Paths). Version 3: what a
// budget left out of a decided verdict (Verdict.Cut, Verdict.CutBudget).
// Version 4: a verdict decided in the one possible order says so, with
// what the race's other paths showed (Verdict.Alone, Verdict.Otherwise),
// for Attribute. Version 5: files are output (each order's version of a
// file the two left differently, Printed.Files), and a worker that
// compares only what is printed would judge otherwise.
const EncodingVersion = 5

// envelope is the encoded form of a job or a verdict: the version first.
type envelope struct {
	Version int      `json:"version"`
	Job     *Job     `json:"job,omitempty"`
	Verdict *Verdict `json:"verdict,omitempty"`
}

// EncodeJob encodes a job for another process.
func EncodeJob(j Job) ([]byte, error) {
	if j.Race == nil {
		return nil, errors.New("encode job: no race")
	}
	return json.Marshal(envelope{Version: EncodingVersion, Job: &j})
}

// DecodeJob decodes and checks a job made by EncodeJob.
func DecodeJob(data []byte) (Job, error) {
	env, err := decode(data)
	if err != nil {
		return Job{}, fmt.Errorf("decode job: %w", err)
	}
	j := env.Job
	switch {
	case j == nil:
		return Job{}, errors.New("decode job: no job")
	case j.Program.Key == "":
		return Job{}, errors.New("decode job: no program key")
	case j.Race == nil || j.Race.ID == "":
		return Job{}, errors.New("decode job: no race")
	case len(j.Options.Run.Args) == 0:
		return Job{}, errors.New("decode job: no argv")
	case j.Options.Ma < 0 || j.Options.Mp < 0:
		return Job{}, errors.New("decode job: negative schedule or path count")
	}
	switch j.Options.Classifier {
	case "", "portend", "replay-analyzer":
	default:
		return Job{}, fmt.Errorf("decode job: unknown classifier %q", j.Options.Classifier)
	}
	return *j, nil
}

// EncodeVerdict encodes a verdict for the process that asked for it.
func EncodeVerdict(v *Verdict) ([]byte, error) {
	return json.Marshal(envelope{Version: EncodingVersion, Verdict: v})
}

// DecodeVerdict decodes and checks a verdict made by EncodeVerdict.
func DecodeVerdict(data []byte) (*Verdict, error) {
	env, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("decode verdict: %w", err)
	}
	v := env.Verdict
	switch {
	case v == nil:
		return nil, errors.New("decode verdict: no verdict")
	case v.RaceID == "":
		return nil, errors.New("decode verdict: no race id")
	case !category.Known(v.Category):
		return nil, fmt.Errorf("decode verdict: unknown category %q", v.Category)
	case v.Order != "" && v.Order != "primary" && v.Order != "alternate":
		return nil, fmt.Errorf("decode verdict: unknown order %q", v.Order)
	}
	return v, nil
}

// decode reads an envelope of this version, refusing unknown fields.
func decode(data []byte) (*envelope, error) {
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, err
	}
	if head.Version != EncodingVersion {
		return nil, fmt.Errorf("encoding version %d, this augur reads %d", head.Version, EncodingVersion)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var env envelope
	if err := dec.Decode(&env); err != nil {
		return nil, err
	}
	return &env, nil
}
