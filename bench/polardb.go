package bench

// PolarDBFigures are seed 002's published results (PolarDB for MySQL,
// one hot row, 8-core CPU, sysbench oltp_inventory), by concurrency
// InventoryThreads. 5.6 publishes QPS only (P95 is nil).
type PolarDBFigures struct {
	Version        string
	QPSOff, QPSOn  []float64
	P95Off, P95On  []float64 // ms
	ClaimedSpeedup string    // the article's own summary
}

// PolarDB is every table of the seed, in its order.
var PolarDB = []PolarDBFigures{
	{
		Version:        "5.6",
		QPSOff:         []float64{1365.31, 1863.94, 1866.6, 1862.64, 1867.32, 1832.51, 1838.31, 1819.52, 1833.2},
		QPSOn:          []float64{1114.79, 7000.19, 12717.32, 22029.48, 43096.06, 61349.7, 83098.69, 90860.94, 87689},
		ClaimedSpeedup: "almost 50x",
	},
	{
		Version:        "5.7",
		QPSOff:         []float64{1348.49, 1892.29, 1889.77, 1895.86, 1875.2, 1850.26, 1843.62, 1849.92, 1835.68},
		QPSOn:          []float64{1104.9, 6886.89, 12485.17, 16003.23, 16460.31, 16548.86, 27920.89, 47893.96, 66500.92},
		P95Off:         []float64{0.9, 5.47, 9.91, 18.95, 36.89, 73.13, 164.45, 297.92, 590.56},
		P95On:          []float64{1.08, 1.44, 1.58, 3.25, 5.28, 9.56, 12.08, 13.22, 18.28},
		ClaimedSpeedup: "almost 35x",
	},
	{
		Version:        "8.0",
		QPSOff:         []float64{1559.14, 2103.82, 2116.4, 2082.1, 2079.74, 2031.64, 1993.09, 1977.6, 1983.61},
		QPSOn:          []float64{1237.28, 7443.04, 12244.19, 15529.52, 23041.15, 33931.18, 53924.24, 54598.6, 50988.22},
		P95Off:         []float64{0.8, 5, 8.9, 17.32, 33.12, 66.84, 153.02, 287.38, 549.52},
		P95On:          []float64{0.97, 1.34, 1.89, 3.19, 4.82, 5.88, 7.17, 13.46, 28.16},
		ClaimedSpeedup: "almost 26x",
	},
}

// At returns the figure of series at the given concurrency, and whether
// the seed has one there (it has only InventoryThreads).
func (PolarDBFigures) At(series []float64, threads int) (float64, bool) {
	for i, t := range InventoryThreads {
		if t == threads && i < len(series) {
			return series[i], true
		}
	}
	return 0, false
}
