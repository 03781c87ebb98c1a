package stats

import (
	"fmt"
	"math"
	"sort"
)

// DSI is seed 001 equation 12, the area beneath the rate curve drawn with
// both axes logarithmic, halved:
//
//	DSI = 0.5 x sum_{s=2..S} (lg T_s + lg T_{s-1}) x (lg X_s - lg X_{s-1}) / 2
//
// with lg the base-10 logarithm, X_s the scales and T_s their median rates.
// Pairs may come in any order (they are sorted by scale). It fails for fewer
// than two scales, a repeated scale, or a scale or rate that is not
// positive (the logarithm has no value there). A DSI compares only runs with
// the same scales, clients and options: the caller writes those beside it.
func DSI(scales []int64, medians []float64) (float64, error) {
	if len(scales) != len(medians) {
		return 0, fmt.Errorf("dsi: %d scales but %d rates", len(scales), len(medians))
	}
	if len(scales) < 2 {
		return 0, fmt.Errorf("dsi: needs at least two scales, have %d", len(scales))
	}
	idx := make([]int, len(scales))
	for i := range idx {
		idx[i] = i
		if scales[i] <= 0 {
			return 0, fmt.Errorf("dsi: scale %d is not positive", scales[i])
		}
		if !(medians[i] > 0) || math.IsInf(medians[i], 0) {
			return 0, fmt.Errorf("dsi: rate %v tps at scale %d is not positive", medians[i], scales[i])
		}
	}
	sort.Slice(idx, func(a, b int) bool { return scales[idx[a]] < scales[idx[b]] })
	var area float64
	for k := 1; k < len(idx); k++ {
		a, b := idx[k-1], idx[k]
		if scales[a] == scales[b] {
			return 0, fmt.Errorf("dsi: scale %d appears twice", scales[a])
		}
		dx := math.Log10(float64(scales[b])) - math.Log10(float64(scales[a]))
		area += (math.Log10(medians[b]) + math.Log10(medians[a])) * dx / 2
	}
	return 0.5 * area, nil
}
