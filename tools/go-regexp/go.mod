module runtime-sdk.invalid/go-regexp

go 1.26
