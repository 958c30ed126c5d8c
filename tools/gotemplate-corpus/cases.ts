// Hand-written cases of the Go template corpus, by area: the template language (lexing, trimming, pipelines,
// control structures, variables and scoping, missing keys), the builtins and their comparison rules, fmt's
// printing and verbs, every function of sprig's hermetic map (a success and, where one exists, an error), and the
// YAML reading of rendered output. Each is rendered over the named variable set (default "types").
/* eslint-disable no-template-curly-in-string -- ${1} and ${name} are Go regexp expansions here, not JS */

/** A hand-written case: a template, the variable set it runs over, and the modes to run (default render). */
export interface HandCase {
  group: string
  template: string
  vars?: string
  modes?: Array<'render' | 'value' | 'enabled'>
}

const R = (group: string, templates: string[], vars?: string): HandCase[] => templates.map(template => ({ group, template, ...(vars !== undefined ? { vars } : {}) }))
const V = (group: string, templates: string[], vars?: string): HandCase[] => templates.map(template => ({ group, template, modes: ['value'], ...(vars !== undefined ? { vars } : {}) }))
const E = (group: string, templates: string[], vars?: string): HandCase[] => templates.map(template => ({ group, template, modes: ['enabled'], ...(vars !== undefined ? { vars } : {}) }))

const LEX = R('lex', [
  '', 'plain text', 'a {{/* comment */}} b', 'a {{- /* trimmed */ -}} b', '{{/* unclosed', '{{/* a */ x}}',
  'a  {{- .s }}', '{{ .s -}}  \n b', 'x {{- .s -}} y', '{{-.s}}', '{{.s-}}', '{{ -3 }}', '{{- 3 -}}', '{{ 3 -}}  4',
  '{{`raw \\n string`}}', '{{ "tab\\there" }}', '{{ "\\u00e9\\U0001F600\\x41\\101" }}', '{{ "bad \\q escape" }}',
  '{{ "unterminated }}', '{{ `unterminated }}', '{{ \'a\' }}', '{{ \'\\n\' }}', '{{ \'ab\' }}', '{{ \'\' }}', '{{ \'\\u00e9\' }}',
  '{{ 0x1F }}', '{{ 0X1f }}', '{{ 0o17 }}', '{{ 017 }}', '{{ 0b101 }}', '{{ 1_000 }}', '{{ 1_000.5 }}', '{{ 0x1p-2 }}',
  '{{ 1e3 }}', '{{ 1E-3 }}', '{{ .5 }}', '{{ 5. }}', '{{ 08 }}', '{{ 0x }}', '{{ 1e }}', '{{ 1_ }}', '{{ 99999999999999999999 }}',
  '{{ 18446744073709551615 }}', '{{ 9223372036854775807 }}', '{{ 9223372036854775808 }}', '{{ -9223372036854775808 }}',
  '{{ 1e400 }}', '{{ 2i }}', '{{ 1+2i }}', '{{ 3abc }}', '{{ +5 }}', '{{ -0 }}', '{{ -0.0 }}', '{{ 1.5e300 }}',
  '{{ .s | printf "%s" }}', '{{ .s|printf "%s"}}', '{{', '{{ .s', '{{ .s }', '}}', '{{ ( .s }}', '{{ .s ) }}', '{{ # }}',
  '{{ @ }}', '{{ "\u00e9" }}', '{{ .\u00e9 }}', '{{ $\u00e9 := 1 }}{{ $\u00e9 }}', '{{ .a.b.c.d }}', '{{ .s.x.y }}',
  '{{ . }}', '{{ $ }}', '{{ .s.}}', '{{ ..s }}', '{{ . s }}', '{{ $x }}', '{{ $x := }}', '{{ :x }}', '{{ $x = 1 }}',
  '{{ nil }}', '{{ true }}', '{{ false }}', '{{ true.x }}', '{{ "s".x }}', '{{ nil.x }}', '{{ (nil).x }}', '{{ (.).s }}',
  'line1\n{{ .missing.x }}\nline3', 'l1\nl2 {{ .s | len | printf "%d" }} {{ .n | upper }}', '{{ if }}{{ end }}',
  '{{ end }}', '{{ else }}', '{{ if .t }}x', '{{ if .t }}x{{ else }}y{{ else }}z{{ end }}', '{{ range }}{{ end }}',
  '{{ break }}', '{{ continue }}', '{{ range .list }}{{ break 1 }}{{ end }}', '{{ define "x" }}a{{ end }}{{ template "x" }}',
  '{{ template "nope" }}', '{{ template .s }}', '{{ define "a" }}{{ end }}{{ define "a" }}b{{ end }}{{ template "a" }}',
  '{{ define "a" }}x{{ end }}{{ define "a" }}y{{ end }}', '{{ define "tpl" }}inner{{ end }}', 'outer{{ define "tpl" }}inner{{ end }}',
  '{{ block "b" . }}block {{ .s }}{{ end }}', '{{ block "b" .nested }}{{ .a.b.c }}{{ end }} {{ template "b" .nested }}',
  '{{ define "r" }}{{ if gt (len .) 0 }}{{ first . }}{{ template "r" (rest .) }}{{ end }}{{ end }}{{ template "r" .strs }}',
  '{{ template "x" }}{{ define "x" }}{{ .s }}{{ end }}', '{{ define "x" }}{{ $ }}{{ end }}{{ template "x" 5 }}',
  '{{ $v := 1 }}{{ define "x" }}{{ $v }}{{ end }}', '{{ .s | }}', '{{ | .s }}', '{{ .s || .n }}', '{{ "a" | "b" }}',
  '{{ .s | 3 }}', '{{ .s | nil }}', '{{ .s | . }}', '{{ .s | true }}', '{{ (1) (2) }}', '{{ ((((.s)))) }}', '{{ () }}',
  '{{ "a" "b" }}', '{{ 1 2 }}', '{{ . 1 }}', '{{ $ 1 }}', '{{ .s 1 }}', '{{ .map.a 1 }}', '{{ 1 | .s }}', '{{ printf }}',
  '{{ undefinedFunc }}', '{{ required "x" .s }}', '{{ toYaml . }}', '{{ fromYaml "a: 1" }}', '{{ now }}', '{{ env "HOME" }}',
  '{{ uuidv4 }}', '{{ randAlphaNum 5 }}', '{{ date "2006" now }}', '{{ getHostByName "x" }}', '{{ hello }}', '{{ hello 1 }}',
  '{{ $x := 1 }}{{ $x := 2 }}{{ $x }}', '{{ $x, $y := 1 }}', '{{ range $x, $y, $z := .list }}{{ end }}',
  '{{ range $x, 1 }}{{ end }}', '{{ with $x := 1 }}{{ $x }}{{ end }}{{ $x }}', '{{ if $x := .n }}{{ $x }}{{ end }}',
  '\u00e9\u00e9 {{ .missing.x }} {{ .s.y }}', '{{ "\u{1F600}" | len }} {{ .s.x }}', '\t{{ .s.x }}', '\n\n  {{ .n.x }}',
  'a\u2028b {{ .s }}', '{{ .s }}\u0000',
  '{{ if .t }}\nx\n{{ else }}\n{{ end', 'line1\n{{ .s\n}}', '{{ .s |\n\n}}', '{{\n/* c */\n.s }}', '{{ if .t }}\n\n', '{{ range .list }}\n{{ else }}\n{{ else }}\n{{ end }}',
  '{{ "a\nb" }}', 'a\n{{ (1 }}', '{{ $x := 1 }}\n{{ $y }}', '{{ with .s }}\n{{ break }}\n{{ end }}', '{{ define "a" }}\n{{ end }}{{ define "a" }}x\n{{ end }}',
  '{{/* a */}}\n{{- /* b */ -}}\n  x', '{{- /* a */}}', '{{ /* not a comment */ }}', '{{/*a*/ .s }}', 'a{{- "" -}}\n\n b', '{{ .s }}\r\n{{- .n }}', '{{ 1 }}{{/* x */ -}}\n 2',
  '{{ if .t }}a{{ else if }}b{{ end }}', '{{ with .s }}{{ else with }}{{ end }}', '{{ if .t }}{{ else with .s }}{{ end }}', '{{ range $i := .list }}{{ $i }}{{ end }}',
  '{{ range $i, $v := .map }}{{ $i }}{{ end }}{{ $v }}', '{{ template "x" .s }}{{ define "x" }}{{ . }}{{ $ }}{{ end }}', '{{ template "x" }}{{ define "x" }}{{ .s }}{{ end }}',
  '{{ block "b" "arg" }}{{ . }}{{ end }}{{ block "b" 1 }}{{ end }}', '{{ define "x" }}{{ .missing.y }}{{ end }}{{ template "x" .nil }}', '{{ define "x" }}{{ .y }}{{ end }}{{ template "x" .nil }}',
  '{{ define "x" }}{{ fail "in x" }}{{ end }}\n{{ template "x" }}', '{{ define "x%y" }}{{ .a.b }}{{ end }}{{ template "x%y" .nil }}', '{{ template "\u00e9" }}{{ define "\u00e9" }}ok{{ end }}',
  '{{ range .strs }}{{ if eq . "c" }}{{ break }}{{ end }}{{ range $.nums }}{{ if eq . 1.0 }}{{ break }}{{ end }}{{ . }}{{ end }};{{ end }}', '{{ range $i, $e := .strs }}{{ if $i }},{{ end }}{{ $e }}{{ end }}',
  '{{ $x := 1 }}{{ range .strs }}{{ $x = . }}{{ end }}{{ $x }}', '{{ with $x := .nested.a }}{{ with $y := .b }}{{ $x.b.c }}{{ $y.c }}{{ end }}{{ end }}', '{{ if $ }}root{{ end }}',
  '{{ .s | printf "%s-%s" .n }}', '{{ .n | printf "%v" | len }}', '{{ "x" | printf "%s %s" "y" }}', '{{ (.s) | upper }}', '{{ (printf "%s" .s).x }}', '{{ (dict "a" (dict "b" 1)).a.b }}',
  '{{ (list 1 2).x }}', '{{ $m := dict "k" .nil }}{{ $m.k.x }}', '{{ index (dict "k" (list 1 2)) "k" 1 }}', '{{ .map.a.b }}', '{{ .nested.a.b.l.x }}', '{{ $.nested.a.b.c }}'
])

const CONTROL = R('control', [
  '{{ if .t }}yes{{ end }}', '{{ if .f0 }}yes{{ else }}no{{ end }}', '{{ if .missing }}y{{ else }}n{{ end }}',
  '{{ if .nil }}y{{ else }}n{{ end }}', '{{ if .zero }}y{{ else }}n{{ end }}', '{{ if .empty }}y{{ else }}n{{ end }}',
  '{{ if .emptyList }}y{{ else }}n{{ end }}', '{{ if .emptyMap }}y{{ else }}n{{ end }}', '{{ if .list }}y{{ else }}n{{ end }}',
  '{{ if .neg }}y{{ else }}n{{ end }}', '{{ if 0.0 }}y{{ else }}n{{ end }}', '{{ if "" }}y{{ else }}n{{ end }}', '{{ if nil }}y{{ end }}',
  '{{ if .f0 }}a{{ else if .t }}b{{ else }}c{{ end }}', '{{ if .f0 }}a{{ else if .zero }}b{{ else if .s }}c{{ end }}',
  '{{ with .s }}{{ . }}{{ end }}', '{{ with .missing }}x{{ else }}none{{ end }}', '{{ with .nested.a }}{{ .b.c }}{{ end }}',
  '{{ with .f0 }}x{{ else with .s }}{{ . }}{{ end }}', '{{ with .f0 }}x{{ else with .zero }}y{{ else }}z{{ end }}',
  '{{ with $x := .n }}{{ $x }} {{ . }}{{ end }}', '{{ with .nested }}{{ $.s }} {{ .a.b.c }}{{ end }}',
  '{{ range .list }}[{{ . }}]{{ end }}', '{{ range $i, $v := .list }}{{ $i }}:{{ $v }} {{ end }}', '{{ range $v := .strs }}{{ $v }}{{ end }}',
  '{{ range .map }}{{ . }},{{ end }}', '{{ range $k, $v := .map }}{{ $k }}={{ $v }};{{ end }}', '{{ range .emptyList }}x{{ else }}empty{{ end }}',
  '{{ range .emptyMap }}x{{ else }}empty{{ end }}', '{{ range .missing }}x{{ else }}missing{{ end }}', '{{ range .nil }}x{{ else }}nil{{ end }}',
  '{{ range 3 }}{{ . }}{{ end }}', '{{ range $i := 4 }}{{ $i }}{{ end }}', '{{ range 0 }}x{{ else }}zero{{ end }}', '{{ range -2 }}x{{ else }}neg{{ end }}',
  '{{ range $i, $v := 3 }}{{ end }}', '{{ range .n }}{{ . }}{{ end }}', '{{ range .s }}{{ . }}{{ end }}', '{{ range .t }}x{{ end }}',
  '{{ range .list }}{{ if eq (printf "%v" .) "two" }}{{ break }}{{ end }}{{ . }},{{ end }}',
  '{{ range .nums }}{{ if eq . 1.0 }}{{ continue }}{{ end }}{{ . }},{{ end }}', '{{ range $i, $v := .strs }}{{ if gt $i 1 }}{{ break }}{{ end }}{{ $v }}{{ end }}',
  '{{ range .list }}{{ .k }}{{ end }}', '{{ range .list }}{{ .x }}{{ end }}', '{{ range .strs }}{{ $.s }}{{ end }}',
  '{{ range .nested.a.b.l }}{{ . }}{{ range $.strs }}{{ . }}{{ end }};{{ end }}', '{{ $x := 0 }}{{ range .nums }}{{ $x = . }}{{ end }}{{ $x }}',
  '{{ $x := "a" }}{{ if .t }}{{ $x := "b" }}{{ $x }}{{ end }}{{ $x }}', '{{ $x := "a" }}{{ if .t }}{{ $x = "b" }}{{ end }}{{ $x }}',
  '{{ range $i, $v := .strs }}{{ end }}{{ $i }}', '{{ $i := 5 }}{{ range $i = .strs }}{{ $i }}{{ end }}{{ $i }}',
  '{{ $a, $b := 1, 2 }}', '{{ range $a, $b = .strs }}{{ $a }}{{ $b }}{{ end }}', '{{ $ := 1 }}{{ $ }}',
  '{{ range .list }}{{ upper . }}{{ end }}', '{{ range .list }}{{ printf "%T " . }}{{ end }}', '{{ range .list }}{{ len . }}{{ end }}',
  '{{ range .strs }}{{ with . }}{{ . }}{{ end }}{{ end }}', '{{- range .strs }}\n  - {{ . }}\n{{- end }}',
  '{{ if and .t .s }}y{{ end }}', '{{ if or .f0 .zero .empty }}y{{ else }}n{{ end }}', '{{ if not .t }}y{{ else }}n{{ end }}'
])

const MISSING = R('missing', [
  '{{ .missing }}', '{{ .missing.a }}', '{{ .missing.a.b.c }}', '{{ .nested.a.missing }}', '{{ .nested.a.b.missing.x }}',
  '{{ .nested.a.b.n }}', '{{ .nested.a.b.n.x }}', '{{ .nil.x }}', '{{ .nil }}', '{{ $.missing }}', '{{ $x := .missing }}{{ $x }}',
  '{{ $x := .missing }}{{ $x.y }}', '{{ $x := .nil }}{{ $x.y }}', '{{ .s.x }}', '{{ .n.x }}', '{{ .list.x }}', '{{ .t.x }}',
  '{{ .missing | len }}', '{{ .missing | upper }}', '{{ upper .missing }}', '{{ upper .nil }}', '{{ .nil | upper }}', '{{ print .missing }}',
  '{{ print .nil }}', '{{ printf "%v" .missing }}', '{{ html .missing }}', '{{ js .nil }}', '{{ urlquery .missing "a" }}',
  '{{ index .map "zz" }}', '{{ index .missing "a" }}', '{{ index .nil "a" }}', '{{ eq .missing nil }}', '{{ eq .nil nil }}',
  '{{ eq .missing "a" }}', '{{ eq .missing .nil }}', '{{ lt .missing 1 }}', '{{ default "d" .missing }}', '{{ default "d" .nil }}',
  '{{ .missing | default "d" }}', '{{ empty .missing }}', '{{ toJson .missing }}', '{{ toJson .nil }}', '{{ kindOf .missing }}',
  '{{ typeOf .nil }}', '{{ (index .map "zz").x }}', '{{ (.missing).x }}', '{{ with .missing.x }}a{{ else }}b{{ end }}'
])

const BUILTINS = R('builtins', [
  '{{ and 1 0 "x" }}', '{{ and 1 2 3 }}', '{{ or 0 "" "x" }}', '{{ or 0 "" }}', '{{ and }}', '{{ or .missing }}', '{{ and .s .missing }}',
  '{{ and (fail "no") 0 }}', '{{ and 0 (fail "no") }}', '{{ or 1 (fail "no") }}', '{{ 1 | and 2 }}', '{{ 0 | or 0 }}', '{{ not 0 }}', '{{ not "x" }}', '{{ not }}', '{{ not 1 2 }}',
  '{{ len .s }}', '{{ len .unicode }}', '{{ len .list }}', '{{ len .map }}', '{{ len .n }}', '{{ len .nil }}', '{{ len 3 }}', '{{ len nil }}',
  '{{ index .list 1 }}', '{{ index .list 5 }}', '{{ index .list -1 }}', '{{ index .list 1.0 }}', '{{ index .list .n }}', '{{ index .nested "a" "b" "c" }}',
  '{{ index .s 0 }}', '{{ index .s 5 }}', '{{ index .s 9 }}', '{{ index .unicode 1 }}', '{{ index .map 1 }}', '{{ index .map nil }}', '{{ index .n 0 }}',
  '{{ index .list }}', '{{ index . "s" }}', '{{ index nil 1 }}', '{{ index .list 4 "k" }}', '{{ index .list 3 "k" }}',
  '{{ print "a" "b" 1 2 "c" .t .nil }}', '{{ print 1 2 }}', '{{ print }}', '{{ println "a" 1 }}', '{{ println }}', '{{ print .list .map }}',
  '{{ html "<a href=\'x\'>&\\"" }}', '{{ html .html }}', '{{ html 1 "<" 2 }}', '{{ js "a\'b\\"c<>&=\\\\" }}', '{{ js .unicode .ctl }}',
  '{{ urlquery "a b&c=d/é" }}', '{{ urlquery 1 2 }}', '{{ call .s }}', '{{ call }}', '{{ call .missing }}', '{{ call "x" 1 }}',
  '{{ eq 1 1 }}', '{{ eq 1 2 1 }}', '{{ eq .n 3.0 }}', '{{ eq .n 3 }}', '{{ eq "a" "a" }}', '{{ eq "a" "b" "a" }}', '{{ eq true true }}',
  '{{ eq 1 "1" }}', '{{ eq .s .n }}', '{{ eq .list .list }}', '{{ eq .map .map }}', '{{ eq .list nil }}', '{{ eq .map .s }}', '{{ eq 1 }}',
  '{{ eq (len .s) 5 }}', '{{ eq (len .s) 5.0 }}', '{{ eq 5 (len .s) }}', '{{ eq (int64 5) 5 }}', '{{ eq (int64 5) (int 5) }}',
  '{{ eq 18446744073709551615 1 }}', '{{ ne 1 2 }}', '{{ ne "a" "a" }}', '{{ ne 1 "a" }}', '{{ ne 1 }}', '{{ ne 1 2 3 }}',
  '{{ lt 1 2 }}', '{{ lt 2.5 1.5 }}', '{{ lt "a" "b" }}', '{{ lt "é" "z" }}', '{{ lt true false }}', '{{ lt 1 2.0 }}', '{{ lt .n 4.0 }}',
  '{{ lt .n 4 }}', '{{ lt .list .list }}', '{{ lt nil 1 }}', '{{ lt (int64 -1) (len .s) }}', '{{ le 2 2 }}', '{{ le 3 2 }}', '{{ le 1 "a" }}',
  '{{ gt 3 2 }}', '{{ gt "b" "a" }}', '{{ gt 2 2 }}', '{{ ge 2 2 }}', '{{ ge 1 2 }}', '{{ ge 1.5 1 }}', '{{ gt .big 100.0 }}', '{{ gt (len .list) 2 }}',
  '{{ lt -1 18446744073709551615 }}', '{{ slice .list 1 3 }}', '{{ slice .s 1 3 }}'
])

const FMT = R('fmt', [
  '{{ 1.0 }} {{ 2.5 }} {{ 100000.0 }} {{ 1000000.0 }} {{ 123456789.0 }} {{ 0.0001 }} {{ 0.00001 }} {{ 1e20 }} {{ 1e21 }}',
  '{{ .n }} {{ .neg }} {{ .zero }} {{ .f }} {{ .big }} {{ .huge }} {{ .tiny }} {{ .maxSafe }}', '{{ .list }} {{ .map }} {{ .nested }}',
  '{{ .strs }} {{ .emptyList }} {{ .emptyMap }}', '{{ . }}', '{{ printf "%d" 42 }} {{ printf "%5d|%-5d|%05d" 42 42 42 }}',
  '{{ printf "%+d % d %x %X %o %O %b %#x %#o %#b" 42 42 255 255 8 8 5 255 8 5 }}', '{{ printf "%c %q %U %#U" 65 65 0x1F600 0x1F600 }}',
  '{{ printf "%f %.2f %8.3f %-8.3f| %e %E %g %G" 3.14159 3.14159 3.14159 3.14159 1234.5678 1234.5678 1234.5678 0.000012345 }}',
  '{{ printf "%.0f %.0f %.0f %.0f %.1f %.2f" 0.5 1.5 2.5 -0.5 0.05 1.005 }}', '{{ printf "%.3g %.10g %g %g" 1234567.0 1.0 1e-5 100000.0 }}',
  '{{ printf "%v %v %v" .f .n .huge }}', '{{ printf "%s %v %q %x %X" .s .s .s .s .s }}', '{{ printf "%10s|%-10s|%.2s" "abc" "abc" "abcdef" }}',
  '{{ printf "% x|%#x|% #x" "hi!" "hi!" "hi!" }}', '{{ printf "%q %+q %#q" "é\\n" "é\\n" "back`tick" }}', '{{ printf "%t %v" true false }}',
  '{{ printf "%d" "str" }}', '{{ printf "%s" 1 }}', '{{ printf "%d" 1.5 }}', '{{ printf "%t" 1 }}', '{{ printf "%z" 1 }}', '{{ printf "%d %d" 1 }}',
  '{{ printf "%d" 1 2 "x" }}', '{{ printf "%" }}', '{{ printf "%-" 1 }}', '{{ printf "100%%" }}', '{{ printf "%[2]d %[1]d" 1 2 }}',
  '{{ printf "%[3]d" 1 2 }}', '{{ printf "%[0]d" 1 }}', '{{ printf "%[x]d" 1 }}', '{{ printf "%*d|%-*d" 5 42 5 42 }}', '{{ printf "%.*f" 2 3.14159 }}',
  '{{ printf "%*d" "x" 42 }}', '{{ printf "%.*d" -1 42 }}', '{{ printf "%v|%d|%s" .list .nums .strs }}', '{{ printf "%v %+v %#v" .map .map .map }}',
  '{{ printf "%#v %#v %#v %#v %#v" .s .n .t .list .nil }}', '{{ printf "%T %T %T %T %T %T" .s .n .t .list .map .nil }}', '{{ printf "%T" (len .s) }}',
  '{{ printf "%v" nil }}', '{{ printf "%d" nil }}', '{{ printf "%s" .nil }}', '{{ printf "%x" .f }}', '{{ printf "%v %.1f %e" .tiny .tiny .tiny }}',
  '{{ printf "%6.2f|%-8.2e|%+.3g" -1.5 12345.678 0.000123 }}', '{{ printf "%08.3f|%+08d|%x" -3.14159 -42 -255 }}', '{{ printf "%5t|%-7t|" true false }}',
  '{{ printf "%c" 0x110000 }}', '{{ printf "%c%c" 0x65 0x301 }}', '{{ printf "%05s" "ab" }}', '{{ printf "%.0d" 0 }}', '{{ printf "%w" "x" }}',
  '{{ printf "%v" (list 1 (list 2 3) (dict "a" 1)) }}', '{{ printf "%d" (list 1 2 "x") }}', '{{ printf "%s" (list "a" 1) }}',
  '{{ printf "%x" (list 10 11) }}', '{{ printf "%v" (semver "1.2.3") }}', '{{ println 1.5 "x" 2 }}', '{{ print 1.0 2.0 "3" 4 }}',
  '{{ 3.0 }} {{ -0.0 }} {{ 1e-320 }} {{ 1.7976931348623157e308 }} {{ 0.1 }} {{ 0.30000000000000004 }}', '{{ printf "%.20f" 0.1 }}',
  '{{ printf "%.30e" 1e-300 }}', '{{ printf "%g %g" 1e6 1e-6 }}', '{{ printf "%#g %#.3g %#v" 1.0 2.0 3.0 }}', '{{ printf "%U" -1 }}',
  '{{ printf "%-5s|%5.1s|%05d|%+.2e|% d|%x|%X" "ab" "xyz" -42 12345.678 7 "hi" "hi" }}', '{{ printf "%[2]*[1]d|%-*d|%.*s" 3 6 -4 1 2 "abc" }}',
  '{{ printf "%!|%z|%[5]d|%.[2]d" 1 2 }}', '{{ printf "%s %v %q %x" nil nil nil nil }}', '{{ printf "%t %v %s" true false true }}',
  '{{ printf "%6.2f|%-8.3g|%G|%e|%.0e" 3.14159265 1234.5678 1e-10 0.0 5e5 }}', '{{ printf "%f %v %v %5.1f %+v" (float64 "inf") (float64 "-inf") (float64 "nan") (float64 "nan") (float64 "nan") }}',
  '{{ printf "%#x %#o %#b %#X %O" 255 8 5 255 8 }}', '{{ printf "%q %#q %+q %#U %x % X" 0x1F600 0x61 0xE9 0x61 "é" "ab" }}', '{{ printf "%d %s" (list "a" 1) }}',
  '{{ printf "%.3d|%8.3d|%-8d|%08.3f|%+08.2f" 7 7 7 -1.5 1.5 }}', '{{ printf "%#.3g|%#g|%#.0f|%#e" 1.0 1e6 3.0 2.0 }}', '{{ printf "%5q|%-6c|%2U" "a" 0x61 0x61 }}',
  '{{ printf "%c %q" 0xD800 0xFFFFFFFFFF }}', '{{ printf "% x|%# x|%.1x|%10x|%-10X|" "abc" "abc" "abc" "ab" "ab" }}', '{{ printf "%x|%5x|" "" "" }}',
  '{{ printf "%.0f %.0f %.2f %e %.1e %g %.3g %G" 0.5 2.5 1.005 5e-324 99.99 1.7976931348623157e308 123456.0 0.000123 }}',
  '{{ printf "%v %v %v" (list nil 1 "a" (dict "k" nil)) (list) (dict) }}', '{{ printf "%#v" (list nil 1.5 "a") }}', '{{ printf "%x %X %b" 1.5 -0.25 1.0 }}',
  '{{ printf "%v" (toDecimal "777") }} {{ printf "%T %T %T" (toDecimal "7") (atoi "1") (len "x") }}'
])

const SPRIG_STRINGS = R('sprig-strings', [
  '{{ hello }}', '{{ abbrev 5 "hello world" }}', '{{ abbrev 3 "hello" }}', '{{ abbrev 20 "hello" }}', '{{ abbrev 6 .unicode }}', '{{ abbrev 5 .unicode }}',
  '{{ abbrevboth 5 10 "1234 5678 9123 4567" }}', '{{ abbrevboth 0 5 "abcdefghij" }}', '{{ abbrevboth 2 6 "abcdefghijklmn" }}',
  '{{ trunc 5 "hello world" }}', '{{ trunc -5 "hello world" }}', '{{ trunc 20 "hi" }}', '{{ trunc 2 .unicode }}', '{{ trunc 1 .unicode }}', '{{ trunc .n "x" }}',
  '{{ trim .spaces }}', '{{ trim "\\u00a0x\\u3000" }}', '{{ upper .unicode }}', '{{ upper "ß straße ǆ ﬁ" }}', '{{ lower "ÀÉÎ İ ΣΑΣ" }}', '{{ title "hello wORLD foo_bar x-y ǆ" }}',
  '{{ untitle "Hello World FOO" }}', '{{ substr 0 5 "hello world" }}', '{{ substr 6 100 "hello world" }}', '{{ substr -1 3 "hello" }}', '{{ substr 3 1 "hello" }}',
  '{{ substr 7 9 "hello" }}', '{{ substr -1 9 "hello" }}', '{{ substr -1 -2 "hello" }}', '{{ substr 1 2 .unicode }}', '{{ substr 1 3 .unicode }}',
  '{{ repeat 3 "ab" }}', '{{ "ab" | repeat 2 }}', '{{ repeat -1 "x" }}', '{{ repeat .n "x" }}', '{{ trimall "$" "$$5.00$" }}', '{{ trimAll "-_" "-_a_b-" }}',
  '{{ trimSuffix ".gz" .path }}', '{{ trimPrefix "/usr" .path }}', '{{ nospace " a b\\tc\\n" }}', '{{ nospace .unicode }}', '{{ initials "Foo Bar baz" }}',
  '{{ initials .unicode }}', '{{ swapcase "Hello World ǅ" }}', '{{ snakecase "HTTPServer" }}', '{{ snakecase .camel }}', '{{ snakecase "ID2Go" }}',
  '{{ snakecase "foo-bar_baz Qux" }}', '{{ snakecase "a1b2" }}', '{{ snakecase "ABC" }}', '{{ snakecase "v1.2.3" }}', '{{ snakecase "_leading" }}',
  '{{ kebabcase "fooBar2Baz" }}', '{{ kebabcase "XMLHttpRequest" }}', '{{ kebabcase "foo  bar" }}', '{{ kebabcase "héllo Wörld" }}',
  '{{ camelcase "foo_bar" }}', '{{ camelcase "http_server" }}', '{{ camelcase "FOO_BAR" }}', '{{ camelcase "__" }}', '{{ camelcase "_a" }}',
  '{{ camelcase "a-b c" }}', '{{ camelcase "x" }}', '{{ wrap 5 "hello world foo" }}', '{{ wrap 3 "a verylongword b" }}', '{{ wrapWith 5 "|" "hello world" }}',
  '{{ wrapWith 3 "\\n" "abcdefgh" }}', '{{ contains "ell" "hello" }}', '{{ hasPrefix "he" "hello" }}', '{{ hasSuffix "lo" "hello" }}',
  '{{ quote "a" 1 .nil "b\\"" }}', '{{ squote "a" 1 .nil }}', '{{ cat "a" 1 .nil 2.5 .list }}', '{{ cat }}', '{{ indent 4 .multiline }}',
  '{{ nindent 2 "a\\nb" }}', '{{ indent -1 "x" }}', '{{ replace "a" "b" "banana" }}', '{{ replace "" "-" "abc" }}', '{{ replace "" "-" "é😀" }}',
  '{{ plural "one" "many" 1 }}', '{{ plural "one" "many" 2 }}', '{{ plural "one" "many" .n }}', '{{ toString 1.5 }}', '{{ toString .list }}',
  '{{ toString nil }}', '{{ toString (semver "1.2.3") }}', '{{ split "," .csv }}', '{{ (split "," .csv)._1 }}', '{{ split "" "abc" }}', '{{ splitList "," .csv }}',
  '{{ splitList "" "" }}', '{{ splitList "x" "" }}', '{{ splitn "," 2 .csv }}', '{{ splitn "," 0 .csv }}', '{{ splitn "," -1 .csv }}', '{{ toStrings .list }}',
  '{{ toStrings "x" }}', '{{ toStrings nil }}', '{{ join "-" .strs }}', '{{ join "," .list }}', '{{ join "," "x" }}', '{{ join "," nil }}', '{{ join "," .nums }}',
  '{{ sortAlpha .strs }}', '{{ sortAlpha .nums }}', '{{ sortAlpha "x" }}', '{{ sortAlpha nil }}', '{{ base .path }}', '{{ dir .path }}', '{{ clean .path }}',
  '{{ ext .path }}', '{{ isAbs .path }}', '{{ base "" }} {{ dir "" }} {{ clean "" }} {{ ext "" }}', '{{ base "/" }} {{ dir "/" }} {{ clean "//a//b/../c/." }}',
  '{{ base "a/b/" }} {{ dir "a" }} {{ clean "../../x" }} {{ ext "a.b/c" }}', '{{ osBase .path }} {{ osDir .path }} {{ osClean .path }} {{ osExt .path }} {{ osIsAbs "x" }}',
  '{{ upper 1 }}', '{{ upper }}', '{{ upper "a" "b" }}', '{{ trunc "5" "x" }}', '{{ abbrev .n "x" }}', '{{ contains 1 "x" }}', '{{ repeat 1.5 "x" }}'
])

const SPRIG_NUMBERS = R('sprig-numbers', [
  '{{ atoi "42" }}', '{{ atoi "4.2" }}', '{{ atoi "-7" }}', '{{ atoi "+7" }}', '{{ atoi "0x10" }}', '{{ atoi "1_000" }}', '{{ atoi "99999999999999999999" }}',
  '{{ atoi .num }}', '{{ atoi 1 }}', '{{ int64 .n }}', '{{ int64 .neg }}', '{{ int64 "12" }}', '{{ int64 "3.9" }}', '{{ int64 "-.5" }}', '{{ int64 "0x1F" }}',
  '{{ int64 "abc" }}', '{{ int64 .t }}', '{{ int64 .nil }}', '{{ int64 .huge }}', '{{ int64 .list }}', '{{ int .f }}', '{{ int "7" }}', '{{ int .hex }}',
  '{{ int .float }}', '{{ float64 .num }}', '{{ float64 "1e3" }}', '{{ float64 "abc" }}', '{{ float64 .n }}', '{{ float64 "inf" }}', '{{ float64 "0x1p3" }}',
  '{{ float64 (int64 5) }}', '{{ seq 5 }}', '{{ seq -3 }}', '{{ seq 0 }}', '{{ seq 2 5 }}', '{{ seq 5 2 }}', '{{ seq 1 2 10 }}', '{{ seq 10 -3 1 }}',
  '{{ seq 10 3 1 }}', '{{ seq }}', '{{ seq 1 2 3 4 }}', '{{ toDecimal "777" }}', '{{ toDecimal 17 }}', '{{ toDecimal "8" }}', '{{ toDecimal .n }}',
  '{{ until 5 }}', '{{ until -3 }}', '{{ until 0 }}', '{{ untilStep 0 10 3 }}', '{{ untilStep 10 0 -4 }}', '{{ untilStep 0 10 0 }}', '{{ untilStep 10 0 2 }}',
  '{{ add1 .n }}', '{{ add1 "5" }}', '{{ add 1 2 3 }}', '{{ add }}', '{{ add .n .f "2" }}', '{{ sub 10 3 }}', '{{ sub .n .f }}', '{{ div 7 2 }}', '{{ div -7 2 }}',
  '{{ div 1 0 }}', '{{ mod 7 3 }}', '{{ mod -7 3 }}', '{{ mod 1 0 }}', '{{ mul 2 3 4 }}', '{{ mul 5 }}', '{{ mul 9223372036854775807 2 }}', '{{ add 9223372036854775807 1 }}',
  '{{ add1f 1.5 }}', '{{ addf 0.1 0.2 0.3 }}', '{{ addf }}', '{{ subf 1 0.9 }}', '{{ subf 5 }}', '{{ divf 1 3 }}', '{{ divf 2 3 }}', '{{ divf -2 3 }}',
  '{{ divf 1 0 }}', '{{ divf 10 4 2 }}', '{{ mulf 1.1 1.1 }}', '{{ mulf 3 "2.5" }}', '{{ mulf .huge 10 }}', '{{ addf .tiny 1 }}', '{{ divf 1 3 3 }}',
  '{{ addf "inf" 1 }}', '{{ biggest 1 5 3 }}', '{{ max 1 5 3 }}', '{{ max "7" 2.9 }}', '{{ min 4 -2 8 }}', '{{ min 3 }}', '{{ maxf 1.5 2.5 -1 }}',
  '{{ minf 1.5 2.5 -1 }}', '{{ maxf "nan" 1 }}', '{{ ceil 1.2 }}', '{{ ceil -1.2 }}', '{{ floor 1.8 }}', '{{ floor "-1.5" }}', '{{ round 3.14159 2 }}',
  '{{ round 2.5 0 }}', '{{ round -2.5 0 }}', '{{ round 1.955 2 }}', '{{ round 1234.5678 -2 }}', '{{ round 2.45 1 0.3 }}', '{{ round .f 0 }}',
  '{{ round 1.5 .n }}', '{{ add1 }}', '{{ sub 1 }}', '{{ div 1 2 3 }}'
])

const SPRIG_LISTS = R('sprig-lists', [
  '{{ list 1 "a" .nil }}', '{{ list }}', '{{ tuple 1 2 }}', '{{ append .strs "d" }}', '{{ push .nums 4 }}', '{{ append "x" 1 }}', '{{ append nil 1 }}',
  '{{ mustAppend .map 1 }}', '{{ mustPush (list) 1 }}', '{{ prepend .strs "z" }}', '{{ mustPrepend 1 2 }}', '{{ first .strs }}', '{{ first .emptyList }}',
  '{{ first "x" }}', '{{ first nil }}', '{{ mustFirst .map }}', '{{ last .strs }}', '{{ last .emptyList }}', '{{ mustLast 1 }}', '{{ rest .strs }}', '{{ rest .emptyList }}',
  '{{ toJson (rest .emptyList) }}', '{{ mustRest "x" }}', '{{ initial .strs }}', '{{ initial .emptyList }}', '{{ mustInitial .t }}', '{{ reverse .strs }}',
  '{{ reverse .emptyList }}', '{{ mustReverse "x" }}', '{{ uniq .strs }}', '{{ uniq (list 1 1.0 "1" 1) }}', '{{ mustUniq 5 }}', '{{ without .strs "a" "c" }}',
  '{{ without .list 1 }}', '{{ mustWithout "x" }}', '{{ has "a" .strs }}', '{{ has 1 .nums }}', '{{ has 3.0 .nums }}', '{{ has "x" nil }}', '{{ has "x" "xyz" }}',
  '{{ mustHas 1 .map }}', '{{ compact (list 0 1 "" "a" .nil false true (list) (dict)) }}', '{{ mustCompact "x" }}', '{{ slice .strs 1 }}', '{{ slice .strs 1 3 }}',
  '{{ slice .strs }}', '{{ slice .emptyList 0 }}', '{{ slice .strs 3 1 }}', '{{ slice .strs -1 }}', '{{ slice .strs "1" "2" }}', '{{ slice "abc" 1 }}',
  '{{ mustSlice 5 1 }}', '{{ slice .strs 0 4 }}', '{{ concat .strs .nums }}', '{{ concat }}', '{{ toJson (concat) }}', '{{ concat .strs "x" }}',
  '{{ concat .strs nil }}', '{{ chunk 2 .strs }}', '{{ chunk 3 (list 1 2 3 4 5 6 7) }}', '{{ chunk 5 .emptyList }}', '{{ chunk 0 .strs }}', '{{ chunk -1 .strs }}',
  '{{ chunk 2 "x" }}', '{{ mustChunk 1 .map }}', '{{ list 1 2 | len }}', '{{ index (list "a" "b") 1 }}', '{{ first (list (list 1 2)) | last }}',
  '{{ toJson (list 1 "a" true .nil (list) (dict)) }}', '{{ has (list 1) (list (list 1)) }}', '{{ uniq (list (dict "a" 1) (dict "a" 1)) }}'
])

const SPRIG_DICTS = R('sprig-dicts', [
  '{{ dict "a" 1 "b" "two" }}', '{{ dict "a" }}', '{{ dict }}', '{{ dict 1 2 .t 3 .nil 4 }}', '{{ get .map "a" }}', '{{ get .map "zz" }}', '{{ get .s "a" }}',
  '{{ $d := dict "a" 1 }}{{ set $d "b" 2 }}{{ $d }}', '{{ $_ := set .map "new" 1 }}{{ .map }}', '{{ unset .map "a" }}', '{{ unset .map "zz" }}',
  '{{ hasKey .map "a" }}', '{{ hasKey .map "zz" }}', '{{ hasKey .emptyMap "a" }}', '{{ pluck "a" .map (dict "a" 9) (dict "b" 1) }}', '{{ pluck "a" }}',
  '{{ keys .map | sortAlpha }}', '{{ keys (dict "only" 1) }}', '{{ keys }}', '{{ keys .map .nested | sortAlpha }}', '{{ pick .map "a" "zz" }}',
  '{{ omit .map "a" }}', '{{ omit .map }}', '{{ merge (dict "a" 1 "b" "") (dict "b" 2 "c" 3) }}', '{{ merge (dict "a" (dict "x" 1)) (dict "a" (dict "y" 2)) }}',
  '{{ merge (dict "a" 0 "b" .nil "c" (list)) (dict "a" 5 "b" 6 "c" (list 1)) }}', '{{ merge (dict "a" "keep") (dict "a" .nil) }}',
  '{{ mergeOverwrite (dict "a" 1 "b" 2) (dict "b" 3 "c" 4) }}', '{{ mergeOverwrite (dict "a" (dict "x" 1 "z" 0)) (dict "a" (dict "y" 2 "z" 9)) }}',
  '{{ mergeOverwrite (dict "a" "keep") (dict "a" .nil) }}', '{{ mergeOverwrite (dict "a" (list 1)) (dict "a" (list 2 3)) }}', '{{ mergeOverwrite (dict "a" "s") (dict "a" (dict "b" 1)) }}',
  '{{ mustMerge (dict) (dict "x" 1) }}', '{{ mustMergeOverwrite (dict "x" 1) }}', '{{ merge .s .map }}', '{{ values (dict "only" 1) }}', '{{ values .emptyMap }}',
  '{{ deepCopy .map }}', '{{ mustDeepCopy .list }}', '{{ deepCopy 5 }}', '{{ dig "a" "b" "c" "def" .nested }}', '{{ dig "a" "x" "def" .nested }}',
  '{{ dig "a" "b" "c" "x" "def" .nested }}', '{{ dig "a" "def" .s }}', '{{ dig "a" .nested }}', '{{ dig 1 "def" .nested }}', '{{ dig "a" "b" "def" .nested }}',
  '{{ get (dict "a" (dict "b" 2)) "a" }}', '{{ (dict "a" (dict "b" 2)).a.b }}', '{{ toJson (dict "z" 1 "a" (dict "y" 2 "b" 3)) }}'
])

const SPRIG_DEFAULTS = R('sprig-defaults', [
  '{{ default "d" "" }}', '{{ default "d" "x" }}', '{{ default "d" 0 }}', '{{ default "d" 0.0 }}', '{{ default "d" false }}', '{{ default "d" .emptyList }}',
  '{{ default "d" .emptyMap }}', '{{ default "d" .list }}', '{{ default "d" }}', '{{ default }}', '{{ default "d" "" "x" }}', '{{ empty "" }}', '{{ empty 0 }}',
  '{{ empty .s }}', '{{ empty .list }}', '{{ empty (dict) }}', '{{ empty (semver "1.0.0") }}', '{{ coalesce .missing .empty .s }}', '{{ coalesce 0 "" }}',
  '{{ coalesce }}', '{{ all 1 "a" .t }}', '{{ all 1 "" }}', '{{ all }}', '{{ any 0 "" "x" }}', '{{ any 0 "" }}', '{{ any }}', '{{ ternary "y" "n" true }}',
  '{{ ternary "y" "n" .f0 }}', '{{ ternary "y" "n" 1 }}', '{{ ternary "y" "n" .t }}', '{{ true | ternary "y" "n" }}', '{{ fromJson .json }}',
  '{{ (fromJson .json).c }}', '{{ fromJson "bad" }}', '{{ fromJson "[1,2" }}', '{{ fromJson "1e400" }}', '{{ fromJson "" }}', '{{ mustFromJson "bad" }}',
  '{{ mustFromJson "[1,]" }}', '{{ mustFromJson "{\\"a\\":1,}" }}', '{{ mustFromJson "{\\"a\\" 1}" }}', '{{ mustFromJson "\\"abc" }}', '{{ mustFromJson "tru" }}',
  '{{ mustFromJson "trux" }}', '{{ mustFromJson "01" }}', '{{ mustFromJson "1." }}', '{{ mustFromJson "-" }}', '{{ mustFromJson "1e" }}', '{{ mustFromJson "[1] 2" }}',
  '{{ mustFromJson "\\"\\\\x\\"" }}', '{{ mustFromJson "\\"\\\\u12g4\\"" }}', '{{ mustFromJson "{1:2}" }}', '{{ mustFromJson "é" }}', '{{ mustFromJson "1e400" }}',
  '{{ mustFromJson "\\"\\\\ud83d\\\\ude00 \\\\ud800\\"" }}', '{{ toJson . }}', '{{ toJson .html }}', '{{ toRawJson .html }}', '{{ toPrettyJson .map }}',
  '{{ toPrettyJson .emptyList }}', '{{ toPrettyJson (dict "a" (list) "b" (dict)) }}', '{{ toJson .unicode }}', '{{ toJson "a\\u2028b\\u0001\\b\\f\\t" }}',
  '{{ toJson (list 1e21 1e-7 1e20 0.000001 -0.0 1.5) }}', '{{ toJson (float64 "nan") }}', '{{ mustToJson (float64 "inf") }}', '{{ toRawJson (float64 "inf") }}',
  '{{ mustToRawJson .list }}', '{{ mustToPrettyJson 1 }}', '{{ toJson (semver "v1.2.3") }}', '{{ toJson (int64 5) }}', '{{ toJson (splitList "," "a,b") }}',
  '{{ toJson (split "," "a,b") }}', '{{ toJson (regexFindAll "x" "abc" -1) }}', '{{ typeOf .s }} {{ typeOf .n }} {{ typeOf .list }} {{ typeOf .map }} {{ typeOf .nil }}',
  '{{ typeOf (semver "1.0.0") }} {{ typeOf (splitList "," "") }} {{ typeOf (until 2) }} {{ typeOf (int 1) }}', '{{ typeIs "string" .s }} {{ typeIs "int" .n }}',
  '{{ typeIsLike "semver.Version" (semver "1.0.0") }}', '{{ kindOf .s }} {{ kindOf .n }} {{ kindOf .list }} {{ kindOf .map }} {{ kindOf .nil }} {{ kindOf (semver "1.0.0") }}',
  '{{ kindIs "slice" .list }} {{ kindIs "map" .list }}', '{{ deepEqual .map .map }} {{ deepEqual (list 1) (list 1) }} {{ deepEqual 1 1.0 }}', '{{ fail "boom" }}',
  '{{ fail "" }}', '{{ fail 1 }}', '{{ duration 90 }}', '{{ duration "3661" }}', '{{ duration (int64 86400) }}', '{{ duration "x" }}', '{{ duration 1.5 }}',
  '{{ durationRound "2h30m" }}', '{{ durationRound "400d" }}', '{{ durationRound (int64 1500000000) }}', '{{ durationRound "1.5s" }}', '{{ durationRound "-3m" }}',
  '{{ durationRound "x" }}', '{{ durationRound 5 }}'
])

const SPRIG_ENCODING = R('sprig-encoding', [
  '{{ b64enc "hello world" }}', '{{ b64enc .unicode }}', '{{ b64dec .b64 }}', '{{ b64dec "aGk" }}', '{{ b64dec "a" }}', '{{ b64dec "aGk=x" }}', '{{ b64dec "a!==" }}',
  '{{ b64dec "aGVs\\nbG8=" }}', '{{ b64dec "aA=" }}', '{{ b64dec "////" }}', '{{ b32enc "hello" }}', '{{ b32dec "NBSWY3DP" }}', '{{ b32dec "NBSWY3D" }}',
  '{{ b32dec "NBSWY3DP!" }}', '{{ b32dec "ME======" }}', '{{ b32dec "MF=" }}', '{{ sha1sum "abc" }}', '{{ sha256sum .unicode }}', '{{ sha512sum "" }}',
  '{{ adler32sum "Wikipedia" }}', '{{ adler32sum .unicode }}', '{{ b64enc 1 }}',
  '{{ decryptAES "secret" "BiJ1CBBw9qkxjXQG+VtkHwqoZGzRmdwjeBig2dUpqK6Hq7v+TEBWVqJJ20YQg7YS" }}',
  '{{ decryptAES "a-very-long-password-longer-than-32-bytes!!" "H08UGg8CeGZK3+bWpDSsZe22cqkSZ/7hJ3apx6EVhtU=" }}',
  '{{ decryptAES "k" "uZmWZmL833J0psRPJxOZcbNb0FECiXMWgM5s+Dy5VTosZMyyl3OCTMeqBOBVkyow" }}', '{{ decryptAES "wrong" "uZmWZmL833J0psRPJxOZcbNb0FECiXMWgM5s+Dy5VTosZMyyl3OCTMeqBOBVkyow" }}',
  '{{ decryptAES "k" "" }}', '{{ decryptAES "k" "!!" }}', '{{ decryptAES "k" "aGVsbG8=" }}', '{{ decryptAES "k" "AAAAAAAAAAAAAAAAAAAAAA==" }}',
  '{{ decryptAES "k" "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==" }}', '{{ derivePassword 1 "long" "password" "user" "example.com" }}',
  '{{ derivePassword 2 "maximum" "pässword" "üser" "site" }}', '{{ derivePassword 1 "pin" "p" "u" "s" }}', '{{ derivePassword 1 "nope" "p" "u" "s" }}',
  '{{ derivePassword 1 "basic" "" "" "" }}', '{{ derivePassword -1 "pin" "p" "u" "s" }}'
])

const SPRIG_REGEX = R('sprig-regex', [
  '{{ regexMatch "^h.*o$" "hello" }}', '{{ regexMatch "[" "x" }}', '{{ mustRegexMatch "[" "x" }}', '{{ regexMatch "(?i)HELLO" "hello" }}',
  '{{ regexMatch "a.c" "a\\nc" }}', '{{ regexMatch "(?s)a.c" "a\\nc" }}', '{{ regexMatch "a.c" "a\\rc" }}', '{{ regexMatch "^b$" "a\\nb" }}', '{{ regexMatch "(?m)^b$" "a\\nb\\n" }}',
  '{{ regexMatch "\\\\d+" "x42" }}', '{{ regexMatch "\\\\s" "\\u00a0" }}', '{{ regexMatch "\\\\w" "é" }}', '{{ regexMatch "\\\\pL" "é" }}', '{{ regexMatch "\\\\p{Greek}" "α" }}',
  '{{ regexMatch "[[:alpha:]]+" "abc" }}', '{{ regexMatch "[[:^digit:]]" "1" }}', '{{ regexMatch "\\\\Qa.b\\\\E" "a.b" }}', '{{ regexMatch "x{2,3}" "xx" }}',
  '{{ regexMatch "a\\\\z" "a\\n" }}', '{{ regexMatch "a$" "a\\n" }}', '{{ regexMatch "\\\\Aa" "ba" }}', '{{ regexMatch "\\\\bfoo\\\\b" "a foo b" }}',
  '{{ regexFindAll "[0-9]+" "a1b22c333" -1 }}', '{{ regexFindAll "[0-9]+" "a1b22c333" 2 }}', '{{ regexFindAll "x*" "abc" -1 }}', '{{ regexFindAll "a*" "baaab" -1 }}',
  '{{ regexFindAll "" "héllo" -1 }}', '{{ regexFindAll "z" "abc" -1 }}', '{{ regexFindAll "[" "x" -1 }}', '{{ mustRegexFindAll "a(" "x" -1 }}',
  '{{ regexFindAll "." "a😀b" -1 }}', '{{ regexFind "[a-z]+" "123abc456" }}', '{{ regexFind "z" "abc" }}', '{{ regexFind "a(" "x" }}', '{{ mustRegexFind "a)" "x" }}',
  '{{ regexReplaceAll "a(x*)b" "-ab-axxb-" "${1}W" }}', '{{ regexReplaceAll "a(x*)b" "-ab-axxb-" "$1W" }}', '{{ regexReplaceAll "(?P<w>\\\\w+)" "hi there" "<$w>" }}',
  '{{ regexReplaceAll "x*" "abc" "-" }}', '{{ regexReplaceAll "a|" "baaac" "X" }}', '{{ regexReplaceAll "(a)(b)?" "ab a" "[$2|$1|$$|$3|${x]" }}', '{{ regexReplaceAll "[" "x" "y" }}',
  '{{ mustRegexReplaceAll "*" "x" "y" }}', '{{ regexReplaceAllLiteral "a(x*)b" "-axb-" "$1" }}', '{{ mustRegexReplaceAllLiteral "a+" "baaa" "$" }}',
  '{{ regexSplit "z+" "pizza" -1 }}', '{{ regexSplit "z+" "pizza" 1 }}', '{{ regexSplit "z+" "pizza" 0 }}', '{{ regexSplit "" "abc" -1 }}', '{{ regexSplit "a" "" -1 }}',
  '{{ regexSplit "x*" "axbxc" -1 }}', '{{ regexSplit "," "a,b,c" 2 }}', '{{ mustRegexSplit "(" "x" -1 }}', '{{ regexQuoteMeta "a.b*c[d]{e}|^$\\\\" }}',
  '{{ mustRegexMatch "a**" "x" }}', '{{ mustRegexMatch "a{1001}" "x" }}', '{{ mustRegexMatch "a{2,1}" "x" }}', '{{ mustRegexMatch "(?=a)" "x" }}', '{{ mustRegexMatch "(?<=a)b" "ab" }}',
  '{{ mustRegexMatch "(?<n>a)" "a" }}', '{{ mustRegexMatch "(?P<n!>a)" "a" }}', '{{ mustRegexMatch "\\\\1" "x" }}', '{{ mustRegexMatch "[z-a]" "x" }}', '{{ mustRegexMatch "[[:foo:]]" "x" }}',
  '{{ mustRegexMatch "\\\\p{Foo}" "x" }}', '{{ mustRegexMatch "x\\\\" "x" }}', '{{ mustRegexMatch "\\\\C" "x" }}', '{{ mustRegexMatch "a{,3}" "a{,3}" }}', '{{ mustRegexMatch "*a" "a" }}',
  '{{ mustRegexMatch "(*)" "a" }}', '{{ mustRegexMatch "a|*" "a" }}', '{{ mustRegexMatch "a*?*" "a" }}', '{{ mustRegexMatch "^*" "a" }}', '{{ mustRegexMatch "\\\\b+" "a" }}',
  '{{ mustRegexMatch "(?i)[a-c]+" "ABC" }}', '{{ mustRegexMatch "a(?i)b" "aB" }}', '{{ mustRegexMatch "a(?i)[b]" "aB" }}', '{{ mustRegexMatch "(?i:A)b" "aB" }}',
  '{{ mustRegexMatch "(?U)a+" "aaa" }}', '{{ regexFind "(?U)a+" "aaa" }}', '{{ regexFind "a+?" "aaa" }}', '{{ regexFind "(?U)a+?" "aaa" }}', '{{ mustRegexMatch "(?x)a" "a" }}',
  '{{ mustRegexMatch "(?i-i)a" "A" }}', '{{ mustRegexMatch "(?-)a" "a" }}', '{{ mustRegexMatch "\\\\x{41}\\\\101\\\\x41" "AAA" }}', '{{ mustRegexMatch "\\\\x{110000}" "A" }}',
  '{{ mustRegexMatch "[\\\\d\\\\-x]+" "1-x" }}', '{{ mustRegexMatch "[^\\\\D]" "5" }}', '{{ mustRegexMatch "(a" "a" }}', '{{ mustRegexMatch "a)" "a" }}', '{{ mustRegexMatch "[a" "a" }}',
  '{{ mustRegexMatch "[]a]" "]" }}', '{{ mustRegexMatch "[^]a]" "b" }}', '{{ regexFindAll "(?i)straße" "STRASSE Straße" -1 }}', '{{ regexFind "\\\\$\\\\{(\\\\w+)\\\\}" "a ${x} b" }}'
])

const SPRIG_SEMVER = R('sprig-semver', [
  '{{ semverCompare ">=1.28.0" "1.28.3" }}', '{{ semverCompare ">=1.28.0" .ver }}', '{{ semverCompare "^1.28" "1.29.0" }}', '{{ semverCompare "~1.28.0" "1.29.0" }}',
  '{{ semverCompare "1.21.1" .builtin.controlPlane.version }}', '{{ semverCompare ">1.0 <2.0" "1.5.0" }}', '{{ semverCompare ">1.0, <2.0" "2.0.0" }}',
  '{{ semverCompare "<1.0 || >=2.0" "2.1.0" }}', '{{ semverCompare "1.2 - 1.4" "1.4.9" }}', '{{ semverCompare "1.2.x" "1.2.7" }}', '{{ semverCompare "*" "1.2.7" }}',
  '{{ semverCompare ">=1.29.0-0" .pre }}', '{{ semverCompare ">=1.28.0" .pre }}', '{{ semverCompare "!=1.2.3" "1.2.3" }}', '{{ semverCompare "!=1.2.x" "1.2.9" }}',
  '{{ semverCompare "=1.2.3" "v1.2.3+meta" }}', '{{ semverCompare "^0.2.3" "0.2.9" }}', '{{ semverCompare "^0.2.3" "0.3.0" }}', '{{ semverCompare "^0.0.3" "0.0.3" }}',
  '{{ semverCompare "~>2" "2.9.9" }}', '{{ semverCompare "<=1.2" "1.2.9" }}', '{{ semverCompare ">1.2" "1.2.9" }}', '{{ semverCompare ">1.2.x" "1.3.0" }}',
  '{{ semverCompare "=<1.x" "1.99.0" }}', '{{ semverCompare "bad" "1.0.0" }}', '{{ semverCompare ">=1.0" "bad" }}', '{{ semverCompare ">=1.0" "1.02.3" }}',
  '{{ semverCompare ">=1.0" "1.2.3-01" }}', '{{ semverCompare ">=1.0" "99999999999999999999.0.0" }}', '{{ semverCompare "" "1.0.0" }}', '{{ semverCompare ">= 1.0 ,< 3" "2.0.0" }}',
  '{{ semverCompare "1.0.0-alpha < 1.0.0-beta" "1.0.0-alpha.1" }}', '{{ semverCompare "<1.0.0-beta.2" "1.0.0-beta.11" }}', '{{ semverCompare "<1.0.0-rc.1" "1.0.0-beta" }}',
  '{{ semver "1.2.3-rc.1+b5" }}', '{{ semver "v2" }}', '{{ semver "bad" }}', '{{ (semver "1.2.3").Major }}', '{{ (semver "v1.2.3-rc.1+b").Prerelease }}',
  '{{ (semver "1.2.3+b").Metadata }}', '{{ (semver "v1.2").Original }}', '{{ (semver "1.2.3").IncMinor }}', '{{ (semver "v1.2.3").IncMajor.Original }}',
  '{{ (semver "1.2.3-a").IncPatch }}', '{{ (semver "1.2.3").LessThan (semver "1.3.0") }}', '{{ (semver "1.2.3").Compare (semver "1.2.3") }}',
  '{{ (semver "1.2.3").Equal (semver "v1.2.3") }}', '{{ (semver "1.2.3").GreaterThan (semver "1.2.3-a") }}', '{{ (semver "1.2.3").Nope }}', '{{ (semver "1.2.3").Major 1 }}',
  '{{ (semver "1.2.3").IncMinor.Original }}', '{{ eq (semver "1.2.3") (semver "1.2.3") }}', '{{ if semver "1.0.0" }}t{{ end }}', '{{ $v := semver .ver }}{{ $v.Minor }}.{{ $v.Patch }}',
  '{{ semverCompare }}', '{{ semverCompare 1 "1" }}'
])

const SPRIG_URL = R('sprig-url', [
  '{{ urlParse .url }}', '{{ (urlParse .url).hostname }}', '{{ urlParse "http://example.com" }}', '{{ urlParse "mailto:a@b.c" }}', '{{ urlParse "a/b?c=d#e" }}',
  '{{ urlParse "/abs/path" }}', '{{ urlParse "//host:80/p" }}', '{{ urlParse "HTTP://X.Y/" }}', '{{ urlParse "a:b/c" }}', '{{ urlParse "1a:b" }}', '{{ urlParse "" }}',
  '{{ urlParse "http:" }}', '{{ urlParse "http://h?" }}', '{{ urlParse "x#" }}', '{{ urlJoin (dict "scheme" "https" "host" "h.io:443" "path" "/a b/ü" "query" "x=1" "fragment" "f g") }}',
  '{{ urlJoin (dict "host" "h" "path" "p") }}', '{{ urlJoin (dict "scheme" "mailto" "opaque" "a@b") }}', '{{ urlJoin (dict "path" "a:b/c") }}', '{{ urlJoin (dict) }}',
  '{{ urlJoin (dict "scheme" "s" "userinfo" "u:p" "host" "h") }}', '{{ urlJoin (dict "scheme" "s" "userinfo" "u" "host" "h") }}', '{{ urlJoin (dict "host" 5) }}',
  '{{ urlJoin (dict "host" .nil) }}', '{{ urlJoin (urlParse .url) }}', '{{ urlJoin (dict "path" "/a?b#c;d" "fragment" "!()*?/") }}', '{{ urlJoin "x" }}'
])

const REFUSED = R('refused', [
  '{{ randInt 1 10 }}', '{{ shuffle "abc" }}', '{{ ago 1 }}', '{{ toDate "2006-01-02" "2024-01-02" }}', '{{ unixEpoch "x" }}', '{{ mustDateModify "1h" "x" }}',
  '{{ bcrypt "x" }}', '{{ htpasswd "u" "p" }}', '{{ genPrivateKey "rsa" }}', '{{ genCA "x" 1 }}', '{{ encryptAES "k" "t" }}', '{{ decryptAES "k" "t" }}',
  '{{ urlParse "http://[::1]:80/%41" }}', '{{ urlJoin (dict "userinfo" "a@b:c" "host" "x") }}', '{{ buildCustomCert "a" "b" }}',
  '{{ genSelfSignedCert "x" nil nil 1 }}', '{{ genSignedCert "x" nil nil 1 "c" }}', '{{ randInt }}', '{{ shuffle }}'
])

// The rendered text read as YAML (value and enabled modes): Go's YAML 1.1 scalars and sigs.k8s.io/yaml's JSON.
const YAML = V('yaml', [
  'yes', 'no', 'on', 'off', 'y', 'n', 'Y', 'True', 'TRUE', 'tRUE', '~', 'null', 'NULL', '', '   ', '# only a comment', '0x1F', '-0x1F', '017', '0o17', '08',
  '1_000', '1__0', '_1', '+1', '-', '.5', '1.', '1e3', '1E+3', '+.5', '.inf', '-.Inf', '+.INF', '.nan', 'inf', '0b101', '-0b101', '0b', '1:20', '2001-12-14',
  '2001-12-14t21:59:43.10-05:00', '12345678901234567890', '9223372036854775807', '9007199254740993', '1e400', '"quoted: yes"', '\'single\'', 'plain text here',
  '{a: 1, b: [x, y]}', '[1, "2", true, null, ~]', 'a: 1\nb:\n  - x\n  - y: z', 'a: 1\n---\nb: 2', '---\na: 1', '--- |\n  literal', 'a: |\n  line1\n  line2\n',
  'a: >\n  folded\n  text\n', 'a: !!str 5', 'a: !!int "5"', 'a: !!float 1', 'a: !!bool yes', 'a: !!int yes', 'a: !!null x', 'a: !foo bar', 'a: ! 5',
  'a: !!binary aGVsbG8=', 'x: &a {b: 1}\ny: *a', 'base: &b {x: 1, y: 2}\nover:\n  <<: *b\n  y: 3', 'base: &b {x: 1}\nover:\n  y: 0\n  <<: *b\n  x: 5',
  'a: &a {x: 1}\nb: &b {x: 2, z: 3}\nc:\n  <<: [*a, *b]', 'a: {<<: {m: 1}, k: 2}', 'a: {"<<": {m: 1}}', 'a: {<<: 5}', 'a: *nope', 'a: &x [*x]', 'a: 1\na: 2',
  '1: a\n2.5: b\n1e3: c\nyes: d\n-1: e\n0x10: f', '~: a', '? [1]\n: 2', '? {a: 1}\n: 2', '18446744073709551615: x', '.inf: x\n-.inf: y\n.nan: z',
  '3.14159265358979: pi\n0.1: t', 'a: b: c', '- a\nb: 1', 'x: [1, 2', '{a: 1', '"abc', 'a:\n  - b\n  c: d', '[1, 2]]', 'key: value\n bad', '\tfoo: 1',
  'a: 1\n\tb: 2', '- a\n- b\n -c', 'a: [1, 2]\n# tail', '"\\u00e9\\x41\\t"', '\'it\'\'s\'', 'a: "line\\nbreak"', 'key with spaces: v', '"a": 1', 'a: b # comment',
  'a: "b" c', 'a: .5e3', 'list:\n- 1\n- 2\n- - 3\n  - 4', 'a:', 'a: []\nb: {}', '[]', '{}', 'a: 1e21', 'a: 1.0e-7', 'a: 1.5', 'a: -0', 'a: -0.0', 'a: 007', 'a: 0o',
  'a: +.inf', 'a: 0x_1F', 'a: 1_2_3.4_5', '%YAML 1.1\n---\na: 1', '...\n', 'a: "é"', 'é: ü', '日本: 語', '[', '[1,', '{a:', '{', '{a: 1,',
  '[]a: x', '[b a]a: x', '"q" x', '"q" - x', '[1] ? x', ' - a\nb', '  - a\n - b', '%x\na: 1', 'a:\n%x', 'x - \n%v', '&a b: 1', 'a: &x;y 1', '*x',
  '"\\u00e9\\q"', 'a: |\n  no final newline', 'a: >-\n  x\n\n', 'a: |+\n  x\n', '- - 1\n  - 2\n- 3', '? a\n: b', '{? a}', '!!map {a: 1}', '!!seq [1]',
  '"" "x" - [0 1]', '"a" "b"', '[1] [2] - x', '\'a\' \'b\' @', '"a" [1, "]"] ? b', '[3 1 2]%!s', '"q"\n- x', '  - a\n- b'
])

const YAML_TEMPLATES = V('yaml-templates', [
  '{{ .s }}', '{{ .n }}', '{{ .big }}', '{{ .huge }}', '{{ .tiny }}', '{{ .t }}', '{{ .nil }}', '{{ .missing }}', '{{ .list }}', '{{ .map }}', '{{ toJson .list }}',
  '{{ toJson .map }}', '{{ toYaml .map }}', '{{ .yamlish }}', '{{ .num }}', '{{ .float }}', '{{ .hex }}', '{{ quote .num }}', '{{ .multiline }}',
  '{{ .multiline | indent 2 | printf "a: |\\n%s" }}', '{{ toJson .unicode }}', '{{ .html }}', '{{ .quote }}', '{{ toJson .quote }}', '{{ .tab }}', '{{ .json }}',
  '{{ .builtin.cluster.name }}-{{ .builtin.controlPlane.replicas }}', '{{ .builtin.controlPlane.replicas }}', '{{ toJson .builtin.cluster.network }}',
  '{{ .builtin.cluster.topology.version }}', '{{ .ver | trimPrefix "v" }}', 'name: {{ .s }}\nreplicas: {{ .n }}', '- {{ .s }}\n- {{ .n }}', '{{ range .strs }}\n- {{ . }}{{ end }}',
  '{{ if .t }}true{{ else }}false{{ end }}', '{{ fail "x" }}', '{{ .s.x }}', '{{', '{{ printf "%v" .maxSafe }}', '{{ int64 .maxSafe | add1 }}', '{{ mul 9007199254740993 1 }}',
  '{{ .ctl }}', '{{ toJson .ctl }}', '{{ printf "a: %s" .s }}', '{{ .emptyList }}', '{{ .emptyMap }}'
])

const ENABLED = E('enabled', [
  '{{ .t }}', '{{ .f0 }}', '{{ .s }}', '{{ .missing }}', '{{ true }}', 'true', 'True', 'yes', 'on', '"true"', ' true ', 'true\n', '{{ .n }}', '1', '{{ eq .s "hello" }}',
  '{{ ne .s "" }}', '{{ not .t }}', '{{ if .t }}true{{ end }}', '{{ if .f0 }}true{{ end }}', '{{ and .t .s }}', '{{ or .f0 .t }}', '{{ .nil }}', '{{ .list }}',
  '{{ fail "nope" }}', '{{ .s.x }}', '{{ bad', '[true]', '{"a": true}', '~', '', '{{ semverCompare ">=1.28.0" .ver }}', '{{ hasKey .map "a" }}', '{{ empty .emptyList }}',
  'TRUE', 'y', '!!bool true', '"yes"', '{{ toJson .t }}', '{{ .nested.a.b.c }}', '{{ .html }}'
])

// What a hostile class or Cluster can make a template do: regular expressions that backtrack exponentially elsewhere
// (RE2 answers at once), rendered YAML that aliases (a bomb is refused), nests beyond Go's limits, or is large, and
// templates that call themselves.
const BOMB = (levels: number, width: number): string => {
  let text = 'a0: &a0 [lol]\n'
  for (let i = 1; i <= levels; i++) text += `a${i}: &a${i} [${Array(width).fill(`*a${i - 1}`).join(', ')}]\n`
  return text
}
const FORTY_A = '(printf "%s!" (repeat 40 "a"))'
const HOSTILE: HandCase[] = [
  ...R('hostile', [
    `{{ regexMatch "^(a+)+$" ${FORTY_A} }}`, `{{ regexMatch "(a|aa)+$" ${FORTY_A} }}`, `{{ regexFind "(a*)*b" ${FORTY_A} }}`, `{{ regexReplaceAll "(a+)+$" ${FORTY_A} "x" }}`,
    `{{ regexSplit "(a|a?)+!" ${FORTY_A} -1 }}`, '{{ regexFindAll "(x+x+)+y" (repeat 5000 "x") -1 }}', '{{ regexMatch "^(\\\\w+\\\\s?)+$" (printf "%s!" (repeat 30 "word ")) }}',
    '{{ len (regexFind "(.*a){20}" (repeat 3000 "a")) }}', '{{ repeat 1000000 "a" | regexMatch "^(a+)+$" }}', '{{ mustRegexMatch "((((((((((a))))))))))" "a" }}',
    '{{ mustRegexMatch "(?P<n>a)|(?P<n>b)" "b" }}', '{{ regexReplaceAll "(?P<n>x)?(?P<n>b)" "ab" "<$n>" }}',
    '{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}', '{{ define "a" }}{{ template "b" . }}{{ end }}{{ define "b" }}{{ template "a" . }}{{ end }}{{ template "a" . }}'
  ]),
  ...E('hostile', [`{{ regexMatch "^(a+)+$" ${FORTY_A} }}`, '{{ regexMatch "^(a+)+$" (repeat 40 "a") }}', BOMB(9, 10), '{{ repeat 10001 "[" }}true{{ repeat 10001 "]" }}']),
  ...V('hostile', [
    BOMB(9, 10), BOMB(5, 4), BOMB(3, 10), BOMB(4, 5), 'a: &a {x: 1, y: 2}\nb: &b {<<: [*a, *a, *a, *a, *a]}\nc: &c {<<: [*b, *b, *b, *b, *b]}\nd: [' + Array(40).fill('*c').join(', ') + ']',
    'a: &a [1]\nb: {<<: *a}', '{{ repeat 10001 "[" }}{{ repeat 10001 "]" }}', '{{ repeat 10001 "- " }}a', 'x: {{ repeat 10001 "{" }}',
    '{{ repeat 5000 "- " }}{{ repeat 5001 "[" }}{{ repeat 5001 "]" }}', '{{ repeat 1500 "[" }}{{ repeat 1500 "]" }}', '{{ range until 10001 }}{{ printf "%s- " (repeat . " ") }}\n{{ end }}',
    '{{ range until 20000 }}k{{ mod . 100 }}: {{ . }}\n{{ end }}', '[{{ range until 10000 }}{{ . }}, {{ end }}0]', 'a: {{ repeat 1000000 "x" }}'
  ])
]

/** Every hand-written case. */
export const HAND_CASES: HandCase[] = [
  ...LEX, ...CONTROL, ...MISSING, ...BUILTINS, ...FMT, ...SPRIG_STRINGS, ...SPRIG_NUMBERS, ...SPRIG_LISTS, ...SPRIG_DICTS, ...SPRIG_DEFAULTS,
  ...SPRIG_ENCODING, ...SPRIG_REGEX, ...SPRIG_SEMVER, ...SPRIG_URL, ...REFUSED, ...YAML, ...YAML_TEMPLATES, ...ENABLED, ...HOSTILE,
  ...R('quick-start', ['{{ .builtin.machineDeployment.version | replace "+" "_" }}', '{{ (index .mdConfig .builtin.machineDeployment.class).osImage }}'], 'quick-start-md'),
  ...V('quick-start', ['{{ toJson .builtin }}', '{{ .preloadImages }}', '{{ toJson .preloadImages }}', '{{ range .preloadImages }}\n- {{ . }}{{ end }}'], 'quick-start-cp')
]
