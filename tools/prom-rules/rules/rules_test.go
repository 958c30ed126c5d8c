// The alert rules of deploy/observability, held to Prometheus itself: the PrometheusRule's groups load with
// Prometheus' rule parser (rulefmt: every expression parses, every field is known), and each alert is evaluated by
// Prometheus' PromQL engine (promqltest) on recorded samples: it fires on the series that should raise it and stays
// quiet on healthy ones.
package rules

import (
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
	"github.com/prometheus/prometheus/promql/promqltest"
	"go.yaml.in/yaml/v2"
)

const rulesFile = "../../../deploy/observability/alert-rules.yaml"

// alertCase is what one alert sees: samples (promqltest `load 1m` lines), and whether it fires at 20m.
type alertCase struct {
	series string
	fires  bool
}

// Every alert of the rules file needs cases here: a rule added without them fails the test.
var cases = map[string][]alertCase{
	"RuntimeExtensionHandlerFailing": {
		{series: `capi_runtime_sdk_requests_total{code="200",host="ext:443",group="hooks.runtime.cluster.x-k8s.io",version="v1alpha1",hook="BeforeClusterCreate",status="Failure"} 0+3x30`, fires: true},
		{series: `capi_runtime_sdk_requests_total{code="200",host="ext:443",group="hooks.runtime.cluster.x-k8s.io",version="v1alpha1",hook="BeforeClusterCreate",status="Success"} 0+3x30`, fires: false},
	},
	"RuntimeExtensionCallErrors": {
		{series: `capi_runtime_sdk_requests_total{code="<error>",host="ext:443",group="hooks.runtime.cluster.x-k8s.io",version="v1alpha1",hook="GeneratePatches",status="Unknown"} 0+1x30`, fires: true},
		{series: `capi_runtime_sdk_requests_total{code="200",host="ext:443",group="hooks.runtime.cluster.x-k8s.io",version="v1alpha1",hook="GeneratePatches",status="Success"} 0+1x30`, fires: false},
	},
	"RuntimeExtensionHandlersBackingOff": {
		{series: `capi_runtime_sdk_handlers_backing_off 2x30`, fires: true},
		{series: `capi_runtime_sdk_handlers_backing_off 0x30`, fires: false},
	},
	"RuntimeExtensionSlow": {
		{series: "capi_runtime_sdk_request_duration_seconds_bucket{host=\"ext:443\",hook=\"GeneratePatches\",le=\"5\"} 0x30\n  capi_runtime_sdk_request_duration_seconds_bucket{host=\"ext:443\",hook=\"GeneratePatches\",le=\"10\"} 0+10x30\n  capi_runtime_sdk_request_duration_seconds_bucket{host=\"ext:443\",hook=\"GeneratePatches\",le=\"+Inf\"} 0+10x30", fires: true},
		{series: "capi_runtime_sdk_request_duration_seconds_bucket{host=\"ext:443\",hook=\"GeneratePatches\",le=\"0.1\"} 0+10x30\n  capi_runtime_sdk_request_duration_seconds_bucket{host=\"ext:443\",hook=\"GeneratePatches\",le=\"10\"} 0+10x30\n  capi_runtime_sdk_request_duration_seconds_bucket{host=\"ext:443\",hook=\"GeneratePatches\",le=\"+Inf\"} 0+10x30", fires: false},
	},
	"ExtensionConfigNotDiscovered": {
		{series: `runtime_sdk_extensionconfig_discovered{name="reference"} 0x30`, fires: true},
		{series: `runtime_sdk_extensionconfig_discovered{name="reference"} 1x30`, fires: false},
	},
	"RuntimeExtensionServerFailures": {
		{series: `runtime_sdk_extension_failures_total{hook="GeneratePatches",handler="generate-patches",reason="handler_failure"} 0+2x30`, fires: true},
		{series: `runtime_sdk_extension_requests_total{hook="GeneratePatches",handler="generate-patches",status="Success"} 0+2x30`, fires: false},
	},
}

func TestAlertRules(t *testing.T) {
	raw, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	var prometheusRule struct {
		Spec yaml.MapSlice `yaml:"spec"`
	}
	if err := yaml.Unmarshal(raw, &prometheusRule); err != nil {
		t.Fatalf("%s: %v", rulesFile, err)
	}
	groupsYAML, err := yaml.Marshal(prometheusRule.Spec)
	if err != nil {
		t.Fatal(err)
	}
	groups, errs := rulefmt.Parse(groupsYAML, false, model.UTF8Validation, parser.NewParser(parser.Options{}), slog.New(slog.DiscardHandler))
	for _, e := range errs {
		t.Errorf("%s: Prometheus refuses the rules: %v", rulesFile, e)
	}
	if groups == nil {
		t.Fatal("no rule groups")
	}
	seen := map[string]bool{}
	for _, g := range groups.Groups {
		for _, r := range g.Rules {
			alert := r.Alert
			seen[alert] = true
			for i, c := range cases[alert] {
				if c.series == "" {
					continue
				}
				expect := ""
				if c.fires {
					// count() of the firing series: one or more, whatever their values.
					expect = "  {} 1"
				}
				script := "load 1m\n  " + c.series + "\n\neval instant at 20m count(" + strings.TrimSpace(r.Expr) + ")\n" + expect + "\n"
				if !c.fires {
					script = "load 1m\n  " + c.series + "\n\neval instant at 20m " + strings.TrimSpace(r.Expr) + "\n"
				}
				t.Run(alert+"/"+map[bool]string{true: "fires", false: "quiet"}[c.fires]+"/"+string(rune('0'+i)), func(t *testing.T) {
					promqltest.RunTest(t, script, promqltest.NewTestEngine(t, false, 0, promqltest.DefaultMaxSamplesPerQuery))
				})
			}
			if len(cases[alert]) < 2 {
				t.Errorf("alert %s has no recorded samples to fire and stay quiet on: add its cases", alert)
			}
		}
	}
	for alert := range cases {
		if !seen[alert] {
			t.Errorf("cases for %s, which the rules file does not have", alert)
		}
	}
}
