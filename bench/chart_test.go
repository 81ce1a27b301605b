package bench

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func offOnChart() Chart {
	return Chart{
		Title: "inventory", XLabel: "threads", LogX: true, TPSLabel: "QPS",
		Series: []ChartSeries{
			{Name: "hotspot off", X: []float64{1, 8, 64}, TPS: []float64{3000, 3500, 3400}, P95: []float64{0.4, 2.6, 20}},
			{Name: "hotspot on", X: []float64{1, 8, 64}, TPS: []float64{2800, 12000, 43000}, P95: []float64{0.5, 0.9, 2.2}},
		},
	}
}

// svgTexts parses an SVG file as XML and returns the text of its <text>
// elements: a file that is not well-formed XML fails the test.
func svgTexts(t *testing.T, path string) (root string, texts []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not valid XML: %v", path, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
			inText = tok.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, strings.TrimSpace(string(tok)))
			}
		case xml.EndElement:
			inText = false
		}
	}
	return root, texts
}

func TestWriteChartSVGHoldsBothSeries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chart.svg")
	if err := WriteChart(path, offOnChart()); err != nil {
		t.Fatal(err)
	}
	root, texts := svgTexts(t, path)
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	count := map[string]int{}
	for _, s := range texts {
		count[s]++
	}
	// Each series is in the legend of both panels (throughput, p95).
	for _, label := range []string{"hotspot off", "hotspot on", "QPS", "p95 latency (ms)", "threads"} {
		if count[label] == 0 {
			t.Errorf("no <text>%s</text> in the SVG (texts: %q)", label, texts)
		}
	}
	if count["hotspot off"] != 2 || count["hotspot on"] != 2 {
		t.Errorf("legend labels: off %d, on %d times; want each in both panels", count["hotspot off"], count["hotspot on"])
	}
}

func TestWriteChartPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chart.png")
	if err := WriteChart(path, offOnChart()); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", path, err)
	}
	// The two series are drawn in the palette's first two colors.
	want := map[int]bool{0: false, 1: false}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for i := range want {
				cr, cg, cb, _ := seriesColor(i).RGBA()
				if r == cr && g == cg && bl == cb {
					want[i] = true
				}
			}
		}
	}
	for i, found := range want {
		if !found {
			t.Errorf("no pixel in series %d's color", i)
		}
	}
}

func TestWriteChartRefusesOtherFormats(t *testing.T) {
	if err := WriteChart(filepath.Join(t.TempDir(), "chart.jpg"), offOnChart()); err == nil {
		t.Fatal("a .jpg chart was accepted")
	}
}

// An interval in which no operation ended has no latency: a NaN p95 is
// left out of the line instead of being drawn as 0 ms.
func TestWriteChartSkipsIntervalsWithoutLatency(t *testing.T) {
	c := offOnChart()
	c.LogX = false
	c.Series[0].P95[1] = math.NaN()
	path := filepath.Join(t.TempDir(), "chart.svg")
	if err := WriteChart(path, c); err != nil {
		t.Fatal(err)
	}
	if _, texts := svgTexts(t, path); len(texts) == 0 {
		t.Fatal("empty chart")
	}
}
