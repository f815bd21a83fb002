module example.com/consumer

go 1.19

require github.com/gameplatform/gamekit v0.1.0
