module gameplatform/gamekit

go 1.19
