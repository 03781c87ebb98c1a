package htmlreport

import (
	"html/template"
	"regexp"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
)

// style is the page's whole styling: readable on a laptop screen, printable
// (diagrams never split across pages), no web fonts.
const style = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",sans-serif;margin:1.5em auto;padding:0 1em;color:#1a1a1a;line-height:1.4}
h1,h2,p,ul,pre,figure,.sub,.summary,.warn,.caption{max-width:1100px}
h1{font-size:1.6em;margin-bottom:.1em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ccc}
.sub{color:#555;margin-top:0}
.summary{display:flex;flex-wrap:wrap;gap:.6em}
.hl{border:1px solid #ccc;border-radius:6px;padding:.5em .8em;min-width:9em}
.hl .v{font-size:1.35em;font-weight:600}.hl .l,.hl .n{color:#555;font-size:.85em}
.warn{background:#fff4e5;border-left:4px solid #e08a00;padding:.5em 1em}
.warn li{margin:.2em 0}
figure{margin:1em 0;page-break-inside:avoid;break-inside:avoid}
figure svg{max-width:100%;height:auto;display:block}
figcaption{color:#333;font-style:italic;margin-top:.3em}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0 1em}
th,td{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f3f3f3}
.tablewrap{overflow-x:auto;max-width:100%}
.caption{font-weight:600;margin:.8em 0 .2em}
.note{color:#555;font-size:.85em}
pre.protocol{white-space:pre-wrap;background:#f7f7f7;padding:.8em;border:1px solid #ddd}
.better{color:#0a7a2f;font-weight:600}.worse{color:#b3261e;font-weight:600}.same{color:#555}
.bar{display:inline-block;height:.8em;background:#4a78b0;vertical-align:middle}
@media print{body{max-width:none;margin:0}.noprint{display:none}h2{page-break-after:avoid}
.tablewrap{overflow:visible}table{font-size:.7em}th,td{padding:.1em .25em;overflow-wrap:anywhere}}
`

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"numeric":   report.Numeric,
	"breakable": breakable,
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>` + style + `</style>
</head><body>
<h1>{{.Title}}</h1>
{{if .Subtitle}}<p class="sub">{{.Subtitle}}</p>{{end}}
{{if .Summary}}<h2 id="summary">Summary</h2><div class="summary">
{{range .Summary}}<div class="hl"><div class="l">{{.Label}}</div><div class="v">{{.Value}}</div>{{if .Note}}<div class="n">{{.Note}}</div>{{end}}</div>
{{end}}</div>{{end}}
{{if .Warnings}}<h2 id="warnings">Warnings</h2><div class="warn"><ul>
{{range .Warnings}}<li>{{.}}</li>
{{end}}</ul></div>{{end}}
{{range .Sections}}<h2{{if .ID}} id="{{.ID}}"{{end}}>{{.Title}}</h2>
{{if .SVG}}<figure>{{.SVG}}{{if .Reading}}<figcaption>{{.Reading}}</figcaption>{{end}}</figure>{{else if .Reading}}<p>{{.Reading}}</p>{{end}}
{{with .Table}}{{range .Title}}<div class="caption">{{.}}</div>{{end}}<div class="tablewrap"><table>
{{range $i, $r := .Rows}}<tr>{{range $r}}{{if eq $i 0}}<th>{{breakable .}}</th>{{else if numeric .}}<td class="num">{{.}}</td>{{else}}<td>{{.}}</td>{{end}}{{end}}</tr>
{{end}}</table></div>{{range .Notes}}<p class="note">{{.}}</p>{{end}}{{end}}
{{.HTML}}
{{end}}
{{if .Protocol}}<h2 id="protocol">The timing protocol</h2><pre class="protocol">{{.Protocol}}</pre>{{end}}
{{if .Manifest}}<h2 id="manifest">What was measured, how, on what</h2><div class="tablewrap"><table>
{{range .Manifest}}<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>
{{end}}</table></div>{{end}}
<p class="note">Written by dbgauge from the run directory alone; this page fetches nothing.</p>
{{if .Script}}<script>{{.Script}}</script>{{end}}
</body></html>
`))

var (
	xmlDecl    = regexp.MustCompile(`(?s)<\?xml.*?\?>`)
	xmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
)

// InlineSVG turns an SVG file (as gonum writes it) into markup to place
// inside the page: the XML declaration and comments go; the figure scales
// to the page's width through its viewBox.
func InlineSVG(svg []byte) template.HTML {
	s := xmlComment.ReplaceAllString(xmlDecl.ReplaceAllString(string(svg), ""), "")
	return template.HTML(strings.TrimSpace(s))
}

// breakable is a column name as markup that may break after its
// underscores (client_ms, conf99.7_tps): a table of many columns then
// needs the width of its figures, not of its names, and fits the window
// (or scrolls, never cut; in print its cells wrap to the page).
func breakable(name string) template.HTML {
	return template.HTML(strings.ReplaceAll(template.HTMLEscapeString(name), "_", "_<wbr>"))
}
