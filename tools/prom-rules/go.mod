module runtime-sdk.invalid/prom-rules

go 1.26.0

require github.com/prometheus/prometheus v0.316.0
