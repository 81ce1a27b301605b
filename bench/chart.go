package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart is a benchmark's picture: two panels, throughput and p95
// latency, against concurrency (a sweep) or time (one run per
// configuration), one line per configuration (off vs on).
type Chart struct {
	Title    string
	XLabel   string // "threads" or "time (s)"
	LogX     bool   // concurrency doubles from point to point: a log axis with a tick at each
	TPSLabel string // "QPS", "TPS", "commits/s"
	Series   []ChartSeries
}

// ChartSeries is one configuration's line in both panels.
type ChartSeries struct {
	Name      string
	X         []float64
	TPS, P95  []float64 // P95 in ms; a nil P95 draws the series in the throughput panel only; a NaN is no point (nothing ended there)
	Reference bool      // published figures, not this run: drawn dashed
}

// WriteChart draws c with gonum/plot to path, as SVG or PNG by the
// file's extension.
func WriteChart(path string, c Chart) error {
	const w, h = 20 * vg.Centimeter, 9 * vg.Centimeter
	var canvas interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		canvas = vgsvg.New(w, h)
	case ".png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))}
	default:
		return fmt.Errorf("bench: chart %s: want a .svg or .png file", path)
	}
	tps, err := c.panel(c.TPSLabel, func(s ChartSeries) []float64 { return s.TPS })
	if err != nil {
		return err
	}
	lat, err := c.panel("p95 latency (ms)", func(s ChartSeries) []float64 { return s.P95 })
	if err != nil {
		return err
	}
	// The title spans both panels, above them.
	dc := draw.New(canvas)
	titleStyle := draw.TextStyle{Color: color.Black, Font: font.From(plot.DefaultFont, 12),
		Handler: plot.DefaultTextHandler, XAlign: draw.XCenter, YAlign: draw.YTop}
	dc.FillText(titleStyle, vg.Point{X: w / 2, Y: h - vg.Millimeter*2}, c.Title)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Centimeter, PadTop: vg.Millimeter * 9,
		PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	plots := [][]*plot.Plot{{tps, lat}}
	canvases := plot.Align(plots, tiles, dc)
	tps.Draw(canvases[0][0])
	lat.Draw(canvases[0][1])
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := canvas.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// panel is one of the two plots: y(series) against X for every series.
func (c Chart) panel(yLabel string, y func(ChartSeries) []float64) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = yLabel
	p.Legend.Top = true
	p.Legend.Left = true
	p.Y.Tick.Marker = plainTicks{}
	p.Add(plotter.NewGrid())
	if c.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = concurrencyTicks(c.Series)
	}
	measured, top := 0, 0.0
	for _, s := range c.Series {
		if !s.Reference {
			measured++
		}
		for _, v := range y(s) {
			if !math.IsNaN(v) {
				top = max(top, v)
			}
		}
	}
	// Room above the lines for the legend, which sits in the top left.
	p.Y.Min, p.Y.Max = 0, top*1.45
	for i, s := range c.Series {
		ys := y(s)
		if ys == nil {
			continue
		}
		color := i
		if s.Reference {
			// A published series takes the color of the measured series
			// it stands beside (off with off, on with on), dashed.
			color = i - measured
		}
		if len(ys) != len(s.X) {
			return nil, fmt.Errorf("bench: chart series %q: %d x values, %d y values", s.Name, len(s.X), len(ys))
		}
		var xys plotter.XYs
		for j := range ys {
			if !math.IsNaN(ys[j]) {
				xys = append(xys, plotter.XY{X: s.X[j], Y: ys[j]})
			}
		}
		if len(xys) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("bench: chart series %q: %w", s.Name, err)
		}
		line.Color = seriesColor(color)
		points.Color = seriesColor(color)
		points.Shape = plotutil.Shape(i)
		line.Width = vg.Points(1.5)
		if s.Reference {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			line.Width = vg.Points(1)
		}
		p.Add(line, points)
		p.Legend.Add(s.Name, line, points)
	}
	return p, nil
}

// concurrencyTicks labels every concurrency a sweep measured, as the
// seed's table does, rather than log-scale decades.
func concurrencyTicks(series []ChartSeries) plot.ConstantTicks {
	seen := map[float64]bool{}
	var ticks plot.ConstantTicks
	for _, s := range series {
		for _, x := range s.X {
			if !seen[x] {
				seen[x] = true
				ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', -1, 64)})
			}
		}
	}
	return ticks
}

// plainTicks are gonum's default ticks labelled without trailing zeros
// ("50000", not "50000.00").
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
}

// seriesColor is the color of the i-th series in both panels.
func seriesColor(i int) color.Color { return plotutil.Color(i) }
