// Generates gosort.json: Go sort.Slice permutations for keys with ties (run: go run gosort_gen.go > gosort.json).

package main

import (
	"encoding/json"
	"fmt"
	"sort"
)

type Case struct {
	Name string `json:"name"`
	Keys []int  `json:"keys"`
	Perm []int  `json:"perm"`
}

func main() {
	var cases []Case
	seed := uint64(12345)
	rnd := func() int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed >> 33)
	}
	sizes := []int{5, 12, 13, 20, 49, 50, 51, 100, 257}
	for _, n := range sizes {
		for _, pat := range []string{"random2", "random5", "random1000", "sorted3", "reversed4", "organpipe", "sawtooth7", "equal"} {
			keys := make([]int, n)
			for i := range keys {
				switch pat {
				case "random2":
					keys[i] = rnd() % 2
				case "random5":
					keys[i] = rnd() % 5
				case "random1000":
					keys[i] = rnd() % 1000
				case "sorted3":
					keys[i] = i / 3
				case "reversed4":
					keys[i] = (n - i) / 4
				case "organpipe":
					if i < n/2 {
						keys[i] = i
					} else {
						keys[i] = n - i
					}
				case "sawtooth7":
					keys[i] = i % 7
				case "equal":
					keys[i] = 1
				}
			}
			perm := make([]int, n)
			for i := range perm {
				perm[i] = i
			}
			sort.Slice(perm, func(i, j int) bool { return keys[perm[i]] < keys[perm[j]] })
			cases = append(cases, Case{fmt.Sprintf("%s/%d", pat, n), keys, perm})
		}
	}
	b, _ := json.Marshal(cases)
	fmt.Println(string(b))
}
