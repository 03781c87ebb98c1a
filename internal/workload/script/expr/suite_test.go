package expr

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestPostgresSuiteExpressions replays the \set and \if commands of the
// "pgbench expressions" case of PostgreSQL's own pgbench tests
// (src/bin/pgbench/t/001_pgbench_with_server.pl): --random-seed=5432 and its
// -D values, each command with its number in that script, and the debug()
// lines that test expects. Its seeded values (random draws, hashes,
// permutations) were fixed by PostgreSQL, not by this package.
func TestPostgresSuiteExpressions(t *testing.T) {
	defines := map[string]string{"foo": "-10.1", "bla": "false", "i": "+3", "n": "null", "t": "t", "f": "of", "d": "1.0"}
	commands := []struct {
		n      int
		name   string // "" for \if and \elif: the condition must hold
		expr   string
		wantIf bool
	}{
		{1, "i1", "debug(random(10, 19))", false},
		{2, "i2", "debug(random_exponential(100, 199, 10.0))", false},
		{3, "i3", "debug(random_gaussian(1000, 1999, 10.0))", false},
		{4, "i4", "debug(abs(-4))", false},
		{5, "i5", "debug(greatest(5, 4, 3, 2))", false},
		{6, "i6", "debug(11 + least(-5, -4, -3, -2))", false},
		{7, "i7", "debug(int(7.3))", false},
		{8, "i8", "debug(17 / (4|1) + ( 4 + (7 >> 2)))", false},
		{9, "i9", "debug(- (3 * 4 - (-(~ 1) + -(~ 0))) / -1 + 3 % -1)", false},
		{10, "ia", "debug(10 + (0 + 0 * 0 - 0 / 1))", false},
		{11, "ib", "debug(:ia + :scale)", false},
		{12, "ic", "debug(64 % (((2 + 1 * 2 + (1 # 2) | 4 * (2 & 11)) - (1 << 2)) + 2))", false},
		{13, "d1", "debug(sqrt(+1.5 * 2.0) * abs(-0.8E1))", false},
		{14, "d2", "debug(double(1 + 1) * (-75.0 / :foo))", false},
		{15, "pi", "debug(pi() * 4.9)", false},
		{16, "d4", "debug(greatest(4, 2, -1.17) * 4.0 * Ln(Exp(1.0)))", false},
		{17, "d5", "debug(least(-5.18, .0E0, 1.0/0) * -3.3)", false},
		{18, "i1", "0", false},
		{19, "d1", "false", false},
		{20, "id", "debug(random_zipfian(1, 9, 1.3))", false},
		{21, "poweri", "debug(pow(-3,3))", false},
		{22, "powerd", "debug(pow(2.0,10))", false},
		{23, "poweriz", "debug(pow(0,0))", false},
		{24, "powerdz", "debug(pow(0.0,0.0))", false},
		{25, "powernegi", "debug(pow(-2,-3))", false},
		{26, "powernegd", "debug(pow(-2.0,-3.0))", false},
		{27, "powernegd2", "debug(power(-5.0,-5.0))", false},
		{28, "powerov", "debug(pow(9223372036854775807, 2))", false},
		{29, "powerov2", "debug(pow(10,30))", false},
		{30, "c0", "debug(1.0 = 0.0 and 1.0 != 0.0)", false},
		{31, "c1", "debug(0 = 1 Or 1.0 = 1)", false},
		{32, "c4", "debug(case when 0 < 1 then 32 else 0 end)", false},
		{33, "c5", "debug(case when true then 33 else 0 end)", false},
		{34, "c6", "debug(case when false THEN -1 when 1 = 1 then 13 + 19 + 2.0 end )", false},
		{35, "c7", "debug(case when (1 > 0) and (1 >= 0) and (0 < 1) and (0 <= 1) and (0 != 1) and (0 = 0) and (0 <> 1) then 35 else 0 end)", false},
		{36, "c8", "debug(CASE \\\n                WHEN (1.0 > 0.0) AND (1.0 >= 0.0) AND (0.0 < 1.0) AND (0.0 <= 1.0) AND \\\n                     (0.0 != 1.0) AND (0.0 = 0.0) AND (0.0 <> 1.0) AND (0.0 = 0.0) \\\n                  THEN 36 \\\n                  ELSE 0 \\\n              END)", false},
		{37, "c9", "debug(CASE WHEN NOT FALSE THEN 3 * 12.3333334 END)", false},
		{38, "ca", "debug(case when false then 0 when 1-1 <> 0 then 1 else 38 end)", false},
		{39, "cb", "debug(10 + mod(13 * 7 + 12, 13) - mod(-19 * 11 - 17, 19))", false},
		{40, "cc", "debug(NOT (0 > 1) AND (1 <= 1) AND NOT (0 >= 1) AND (0 < 1) AND \\\n    NOT (false and true) AND (false OR TRUE) AND (NOT :f) AND (NOT FALSE) AND \\\n    NOT (NOT TRUE))", false},
		{41, "n0", "debug(NULL + NULL * exp(NULL))", false},
		{42, "n1", "debug(:n0)", false},
		{43, "n2", "debug(NOT (:n0 IS NOT NULL OR :d1 IS NULL))", false},
		{44, "n3", "debug(:n0 IS NULL AND :d1 IS NOT NULL AND :d1 NOTNULL)", false},
		{45, "n4", "debug(:n0 ISNULL AND NOT :n0 IS TRUE AND :n0 IS NOT FALSE)", false},
		{46, "n5", "debug(CASE WHEN :n IS NULL THEN 46 ELSE NULL END)", false},
		{47, "n6", "debug(:n IS NULL AND NOT :f AND :t)", false},
		{48, "cs", "debug(CASE WHEN 1 THEN TRUE END AND CASE WHEN 1.0 THEN TRUE END AND CASE WHEN :n THEN NULL ELSE TRUE END)", false},
		{49, "h0", "debug(hash(10, 5432))", false},
		{50, "h1", "debug(:h0 = hash_murmur2(10, 5432))", false},
		{51, "h3", "debug(hash_fnv1a(10, 5432))", false},
		{52, "h4", "debug(hash(10))", false},
		{53, "h5", "debug(hash(10) = hash(10, :default_seed))", false},
		{54, "zy", "0", false},
		{55, "yz", "debug(case when :zy = 0 then -1 else (1 / :zy) end)", false},
		{56, "yz", "debug(case when :zy = 0 or (1 / :zy) < 0 then -1 else (1 / :zy) end)", false},
		{57, "yz", "debug(case when :zy > 0 and (1 / :zy) < 0 then (1 / :zy) else 1 end)", false},
		{58, "v0", "NULL", false},
		{59, "v1", "TRUE", false},
		{60, "v2", "5432", false},
		{61, "v3", "-54.21E-2", false},
		{63, "nope", "0", false},
		{64, "", "1 > 0", true},
		{65, "id", "debug(65)", false},
		{71, "", "1 < 0", false},
		{73, "", "1 > 0", true},
		{74, "ie", "debug(74)", false},
		{78, "", "1 < 0", false},
		{80, "", "1 < 0", false},
		{83, "if", "debug(83)", false},
		{85, "", "1 = 1", true},
		{86, "ig", "debug(86)", false},
		{90, "", "1 = 0", false},
		{92, "", "1 <> 0", true},
		{93, "ih", "debug(93)", false},
		{95, "nope", "debug(:nope)", false},
		{96, "sc", "debug(:scale)", false},
		{97, "ci", "debug(:client_id)", false},
		{98, "rs", "debug(:random_seed)", false},
		{99, "min", "debug(-9223372036854775808)", false},
		{100, "max", "debug(-(:min + 1))", false},
		{101, "t", "debug(permute(0, 2) + permute(1, 2) = 1)", false},
		{102, "t", "debug(permute(0, 3) + permute(1, 3) + permute(2, 3) = 3)", false},
		{103, "t", "debug(permute(0, 4) + permute(1, 4) + permute(2, 4) + permute(3, 4) = 6)", false},
		{104, "t", "debug(permute(0, 5) + permute(1, 5) + permute(2, 5) + permute(3, 5) + permute(4, 5) = 10)", false},
		{105, "t", "debug(permute(0, 16) + permute(1, 16) + permute(2, 16) + permute(3, 16) + \\\n             permute(4, 16) + permute(5, 16) + permute(6, 16) + permute(7, 16) + \\\n             permute(8, 16) + permute(9, 16) + permute(10, 16) + permute(11, 16) + \\\n             permute(12, 16) + permute(13, 16) + permute(14, 16) + permute(15, 16) = 120)", false},
		{106, "size", "random(2, 1000)", false},
		{107, "v", "random(0, :size - 1)", false},
		{108, "p", "permute(:v, :size)", false},
		{109, "t", "debug(0 <= :p and :p < :size and :p = permute(:v + :size, :size) and :p <> permute(:v + 1, :size))", false},
		{110, "t", "debug(permute(:v, 1) = 0)", false},
		{111, "t", "debug(permute(0, 2, 5431) = 0 and permute(1, 2, 5431) = 1 and \\\n             permute(0, 2, 5433) = 1 and permute(1, 2, 5433) = 0)", false},
		{112, "size", "debug(:max - 10)", false},
		{113, "t", "debug(permute(:size-1, :size, 5432) = 520382784483822430 and \\\n             permute(:size-2, :size, 5432) = 1143715004660802862 and \\\n             permute(:size-3, :size, 5432) = 447293596416496998 and \\\n             permute(:size-4, :size, 5432) = 916527772266572956 and \\\n             permute(:size-5, :size, 5432) = 2763809008686028849 and \\\n             permute(:size-6, :size, 5432) = 8648551549198294572 and \\\n             permute(:size-7, :size, 5432) = 4542876852200565125)", false},
	}
	// The test's expectations, as regular expressions over pgbench's stderr.
	expected := []string{
		`command=1.: int 17\b`, `command=2.: int 104\b`, `command=3.: int 1498\b`,
		`command=4.: int 4\b`, `command=5.: int 5\b`, `command=6.: int 6\b`, `command=7.: int 7\b`,
		`command=8.: int 8\b`, `command=9.: int 9\b`, `command=10.: int 10\b`, `command=11.: int 11\b`,
		`command=12.: int 12\b`, `command=15.: double 15\b`, `command=16.: double 16\b`, `command=17.: double 17\b`,
		`command=20.: int 3\b`, `command=21.: double -27\b`, `command=22.: double 1024\b`, `command=23.: double 1\b`,
		`command=24.: double 1\b`, `command=25.: double -0.125\b`, `command=26.: double -0.125\b`,
		`command=27.: double -0.00032\b`, `command=28.: double 8.50705917302346e\+0?37\b`, `command=29.: double 1e\+0?30\b`,
		`command=30.: boolean false\b`, `command=31.: boolean true\b`, `command=32.: int 32\b`, `command=33.: int 33\b`,
		`command=34.: double 34\b`, `command=35.: int 35\b`, `command=36.: int 36\b`, `command=37.: double 37\b`,
		`command=38.: int 38\b`, `command=39.: int 39\b`, `command=40.: boolean true\b`, `command=41.: null\b`,
		`command=42.: null\b`, `command=43.: boolean true\b`, `command=44.: boolean true\b`, `command=45.: boolean true\b`,
		`command=46.: int 46\b`, `command=47.: boolean true\b`, `command=48.: boolean true\b`,
		`command=49.: int -5817877081768721676\b`, `command=50.: boolean true\b`, `command=51.: int -7793829335365542153\b`,
		`command=52.: int -?\d+\b`, `command=53.: boolean true\b`, `command=65.: int 65\b`, `command=74.: int 74\b`,
		`command=83.: int 83\b`, `command=86.: int 86\b`, `command=93.: int 93\b`, `command=95.: int 0\b`,
		`command=96.: int 1\b`, `command=97.: int 0\b`, `command=98.: int 5432\b`, `command=99.: int -9223372036854775808\b`,
		`command=100.: int 9223372036854775807\b`, `command=101.: boolean true\b`, `command=102.: boolean true\b`,
		`command=103.: boolean true\b`, `command=104.: boolean true\b`, `command=105.: boolean true\b`,
		`command=109.: boolean true\b`, `command=110.: boolean true\b`, `command=111.: boolean true\b`,
		`command=113.: boolean true\b`,
	}

	seeds := SeedClients(5432, 1, false)
	vars := &Variables{}
	for k, v := range defines {
		mustSet(t, vars.SetText(k, v))
	}
	mustSet(t, vars.SetValue("scale", Int(1)))
	mustSet(t, vars.SetValue("client_id", Int(0)))
	mustSet(t, vars.SetValue("default_seed", Int(seeds.DefaultSeed)))
	mustSet(t, vars.SetValue("random_seed", Int(5432)))
	var stderr bytes.Buffer
	ctx := &Context{Vars: vars, Rand: &seeds.Clients[0], Debug: &stderr}
	for _, c := range commands {
		e, err := Parse(c.expr + "\n")
		if err != nil {
			t.Fatalf("command %d %q: %v", c.n, c.expr, err)
		}
		ctx.Command = c.n
		v, err := e.Eval(ctx)
		if err != nil {
			t.Fatalf("command %d %q: %v", c.n, c.expr, err)
		}
		if c.name == "" {
			if v.Truth() != c.wantIf {
				t.Errorf("command %d: \\if %s is %v", c.n, c.expr, v.Truth())
			}
			continue
		}
		mustSet(t, vars.SetValue(c.name, v))
	}
	for _, re := range expected {
		if !regexp.MustCompile(re).MatchString(stderr.String()) {
			t.Errorf("no debug line matches %s", re)
		}
	}
	if t.Failed() {
		t.Logf("debug output:\n%s", strings.TrimSpace(stderr.String()))
	}
}

func mustSet(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
