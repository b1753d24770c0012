package data_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
)

func ExampleParse() {
	csv := "size,color,price\n1.5,red,10.5\n2.5,blue,NA\n,red,30.25\n"
	d, err := data.Parse([]byte(csv), data.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Task, d.TargetName, d.FeatureNames, d.DroppedRows)
	fmt.Printf("%v\n", mat.Formatted(d.X))
	fmt.Println(d.Y)
	// Output:
	// regression price [size color=red] 1
	// ⎡1.5    1⎤
	// ⎣NaN    1⎦
	// [10.5 30.25]
}

func ExampleParse_error() {
	_, err := data.Parse([]byte("a,b,y\n1,2,3\n4,5\n"), data.Options{})
	fmt.Println(err)
	_, err = data.Parse([]byte("a,b\n1,2\n"), data.Options{Target: "label"})
	fmt.Println(err)
	// Output:
	// data: line 3 has 2 fields but line 1 has 3; every line needs the same number (look for a missing or extra comma, or an unquoted comma inside a value)
	// data: no column is named "label"; the columns are "a", "b"
}

func ExamplePreview() {
	p, err := data.Preview([]byte("a;b;class\n1;2;x\n3;4;y\n5;6;x\n"), 2, data.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q %q %q more=%v\n", p.Delimiter, p.Names, p.Rows, p.More)
	// Output:
	// ';' ["a" "b" "class"] [["1" "2" "x"] ["3" "4" "y"]] more=true
}

func ExampleFit() {
	train := mat.NewDense(3, 2, []float64{
		1, 10,
		math.NaN(), 10,
		5, 10,
	})
	test := mat.NewDense(1, 2, []float64{math.NaN(), 12})
	s, err := data.Fit(train, nil, data.Prep{})
	if err != nil {
		panic(err)
	}
	// The missing value becomes the training mean 3, which standardizes
	// to 0; the constant column is centred on 10 and not scaled.
	Z, _ := s.Apply(nil, test)
	fmt.Println(Z.RawRowView(0))
	// Output:
	// [0 2]
}

func ExampleScaler_Apply() {
	X := mat.NewDense(2, 2, []float64{3, 4, 0, 0})
	s, _ := data.Fit(X, nil, data.Prep{Raw: true, UnitNorm: true})
	Z, _ := s.Apply(nil, X)
	fmt.Println(Z.RawRowView(0), Z.RawRowView(1))
	// Output:
	// [0.6 0.8] [0 0]
}

func ExampleSplit() {
	train, test, err := data.Split(10, 0.3, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println(train, test)
	// Output:
	// [0 1 2 3 4 8 9] [5 6 7]
}

func ExampleKFold() {
	folds, err := data.KFold(10, 3, 1)
	if err != nil {
		panic(err)
	}
	for _, f := range folds {
		fmt.Println(len(f))
	}
	// Output:
	// 4
	// 3
	// 3
}

func ExampleFolds() {
	folds, err := data.Folds(6, 3, 1)
	if err != nil {
		panic(err)
	}
	for _, f := range folds {
		fmt.Println(f.Train, f.Test)
	}
	// Output:
	// [0 1 3 5] [2 4]
	// [1 2 4 5] [0 3]
	// [0 2 3 4] [1 5]
}

func ExampleRows() {
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	y := []float64{10, 20, 30}
	idx := []int{2, 0}
	fmt.Println(data.Rows(X, idx).RawMatrix().Data, data.Take(y, idx))
	// Output:
	// [5 6 1 2] [30 10]
}

func ExampleComplement() {
	rest, err := data.Complement(6, []int{1, 4})
	if err != nil {
		panic(err)
	}
	fmt.Println(rest)
	// Output:
	// [0 2 3 5]
}
