module github.com/gameplatform/gamekit

go 1.19
