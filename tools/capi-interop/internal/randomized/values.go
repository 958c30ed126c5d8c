// Package randomized fills Cluster API Runtime SDK v1alpha1 hook requests and responses from Cluster API's Go
// types at random (sigs.k8s.io/randfill, as Kubernetes' and Cluster API's fuzz tests do), with custom fill
// functions that keep every value valid as the API server would have stored it: names are DNS-1123
// labels/subdomains, label keys and values are valid, enum fields hold one of their values, strings stay within
// the CRD maxLength markers, integers within their ranges, timestamps are whole seconds, raw JSON fields hold
// small valid JSON objects, and so on (see fill.go). Every value is reproducible from a seed.
//
// Requests(hook, seed, perHook) returns perHook random requests of a hook plus deliberately large but valid
// ones (LargeCases); RandomResponse(hook, seed, call) returns a random, decodable response of a hook.
package randomized

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// rng is the random source of one generated value; every helper draws from it so that a seed reproduces it.
type rng struct{ *rand.Rand }

// newRNG derives an independent, reproducible source from a seed and labels (hook, case index, ...).
func newRNG(seed int64, parts ...string) rng {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d", seed)
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return rng{rand.New(rand.NewSource(int64(h.Sum64())))}
}

const (
	lower    = "abcdefghijklmnopqrstuvwxyz"
	alnum    = lower + "0123456789"
	alnumMix = alnum + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
)

func (r rng) between(min, max int) int { return min + r.Intn(max-min+1) }

func (r rng) chance(p float64) bool { return r.Float64() < p }

func (r rng) pick(options ...string) string { return options[r.Intn(len(options))] }

func (r rng) from(chars string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(chars[r.Intn(len(chars))])
	}
	return b.String()
}

// words are the building blocks of realistic names.
var words = []string{
	"alpha", "beta", "prod", "dev", "staging", "edge", "core", "web", "db", "cache", "eu", "us", "west", "east",
	"blue", "green", "pool", "md", "cp", "worker", "infra", "team", "runtime", "capi", "quick", "start", "fd",
}

// dnsLabel returns a DNS-1123 label (lowercase alphanumerics and '-', starting with a letter, ending with an
// alphanumeric) of at most max characters (max >= 1).
func (r rng) dnsLabel(max int) string {
	var s string
	switch r.Intn(3) {
	case 0:
		s = words[r.Intn(len(words))] + "-" + r.from(alnum, r.between(1, 6))
	case 1:
		s = words[r.Intn(len(words))] + "-" + words[r.Intn(len(words))] + "-" + r.from(alnum, 5)
	default:
		s = r.from(lower, 1) + r.from(alnum+"-", r.between(0, 10)) + r.from(alnum, 1)
	}
	if len(s) > max {
		s = s[:max]
	}
	return strings.TrimRight(s, "-")
}

// dnsSubdomain returns a DNS-1123 subdomain of at most max characters (max >= 1).
func (r rng) dnsSubdomain(max int) string {
	parts := []string{r.dnsLabel(63)}
	for n := r.Intn(3); n > 0; n-- {
		parts = append(parts, r.dnsLabel(20))
	}
	s := strings.Join(parts, ".")
	for len(s) > max {
		s = strings.TrimRight(s[:max], "-.")
	}
	return s
}

// labelName returns the name part of a qualified name: [A-Za-z0-9][-A-Za-z0-9_.]*[A-Za-z0-9], at most 63.
func (r rng) labelName() string {
	if r.chance(0.5) {
		return r.dnsLabel(63)
	}
	return r.from(alnumMix, 1) + r.from(alnumMix+"-_.", r.between(0, 12)) + r.from(alnumMix, 1)
}

// qualifiedName returns a label/annotation key: an optional DNS subdomain prefix and '/', then a name.
func (r rng) qualifiedName() string {
	if r.chance(0.5) {
		return r.labelName()
	}
	prefix := r.pick("cluster.x-k8s.io", "topology.cluster.x-k8s.io", "example.com", "app.kubernetes.io", "capi-interop.example.com", r.dnsSubdomain(60))
	return prefix + "/" + r.labelName()
}

// labelValue returns a valid label value: empty or a name of at most 63 characters.
func (r rng) labelValue() string {
	if r.chance(0.15) {
		return ""
	}
	return r.labelName()
}

// text returns free text of up to max runes: ASCII with punctuation, quotes and backslashes, control-free
// whitespace and non-ASCII runes (all valid UTF-8).
func (r rng) text(max int) string {
	pieces := []string{"a", "Z", "0", " ", "-", "_", ".", "/", ":", "\"", "'", "\\", "<", ">", "&", "{", "}", "\n", "\t", "é", "ß", "日本", "✓", "🙂", "\u2028", "%", "$", "=", ","}
	n := r.Intn(max + 1)
	var b strings.Builder
	runes := 0
	for runes < n {
		var p string
		if r.chance(0.7) {
			p = r.from(alnumMix, 1)
		} else {
			p = pieces[r.Intn(len(pieces))]
		}
		b.WriteString(p)
		runes += len([]rune(p))
	}
	return string([]rune(b.String())[:n])
}

// longText returns exactly n ASCII characters of readable text.
func longText(n int, seedWord string) string {
	unit := seedWord + " lorem ipsum dolor sit amet, consectetur adipiscing elit; "
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

// version returns a Kubernetes version v1.<minor>.<patch>.
func (r rng) version() string {
	return fmt.Sprintf("v1.%d.%d", r.between(25, 36), r.between(0, 15))
}

// versions returns n strictly increasing Kubernetes versions, one per minor, above minor from.
func versions(from, n int) []string {
	out := make([]string, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("v1.%d.%d", from+i, i%7))
	}
	return out
}

func (r rng) uuid() types.UID {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(r.Intn(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return types.UID(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
}

// time returns a timestamp at whole seconds (what metav1.Time keeps), in UTC.
func (r rng) time() metav1.Time {
	base := time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)
	return metav1.NewTime(base.Add(time.Duration(r.Int63n(3*365*24*3600)) * time.Second))
}

// cidr returns a valid IPv4 or IPv6 CIDR block.
func (r rng) cidr() string {
	if r.chance(0.25) {
		return fmt.Sprintf("fd%02x:%x:%x::/%d", r.Intn(256), r.Intn(65536), r.Intn(65536), r.pickInt(48, 56, 64))
	}
	prefix := r.between(12, 16)
	return fmt.Sprintf("%d.%d.0.0/%d", r.pickInt(10, 172, 192), r.Intn(256)&(0xff<<(16-prefix))&0xff, prefix)
}

// ip returns an IPv4 address.
func (r rng) ip() string {
	return fmt.Sprintf("%d.%d.%d.%d", r.pickInt(10, 172, 192), r.Intn(256), r.Intn(256), r.between(1, 254))
}

// kind returns an UpperCamelCase Kubernetes kind.
func (r rng) kind(suffix string) string {
	prefix := r.pick("Docker", "AWS", "Azure", "GCP", "Metal3", "Kubeadm", "Talos", "Vsphere", "Openstack", "In"+strings.ToUpper(r.from(lower, 1))+r.from(lower, 4))
	return prefix + suffix
}

func (r rng) pickInt(options ...int) int { return options[r.Intn(len(options))] }

// jsonValue returns a random JSON value (bounded depth): null, bool, number, string, array or object.
func (r rng) jsonValue(depth int) any {
	k := r.Intn(8)
	if depth <= 0 && k >= 6 {
		k = r.Intn(6)
	}
	switch k {
	case 0:
		return r.chance(0.5)
	case 1:
		return r.Intn(100000) - 100
	case 2:
		return float64(r.Intn(10000)) / 8
	case 3, 4:
		return r.text(40)
	case 5:
		if r.chance(0.3) {
			return nil
		}
		return r.dnsLabel(30)
	case 6:
		n := r.Intn(4)
		arr := make([]any, 0, n)
		for i := 0; i < n; i++ {
			arr = append(arr, r.jsonValue(depth-1))
		}
		return arr
	default:
		return r.jsonObject(depth - 1)
	}
}

// value returns a random JSON value that is not null (a variable value is required: null would be dropped).
func (r rng) value() any {
	for {
		if v := r.jsonValue(2); v != nil {
			return v
		}
	}
}

// jsonObject returns a random JSON object with field names like Kubernetes' (camelCase).
func (r rng) jsonObject(depth int) map[string]any {
	n := r.Intn(5)
	obj := make(map[string]any, n)
	for i := 0; i < n; i++ {
		obj[r.fieldName()] = r.jsonValue(depth)
	}
	return obj
}

func (r rng) fieldName() string {
	name := r.pick("image", "replicas", "enabled", "region", "zone", "size", "files", "config", "extraArgs", "tags",
		"instanceType", "network", "subnet", "loadBalancer", "customImage", "rootVolume", "registry", "mode", "count")
	if r.chance(0.3) {
		name += strings.ToUpper(r.from(lower, 1)) + r.from(lower, r.between(2, 6))
	}
	return name
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("randomized: cannot marshal %T: %v", v, err))
	}
	return b
}

func itoa(i int) string { return strconv.Itoa(i) }
