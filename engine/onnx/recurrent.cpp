// SPDX-License-Identifier: GPL-3.0-or-later
// Recurrent layers GRU and LSTM (ONNX gate layouts, forward / reverse / bidirectional, sequence_lens,
// initial states, layout 0 or 1, LSTM peepholes and input_forget). Default activations only:
//   GRU:  z = σ(X Wz' + H Rz' + Wbz + Rbz), r = σ(X Wr' + H Rr' + Wbr + Rbr),
//         h~ = tanh(X Wh' + (r ⊙ H) Rh' + Rbh + Wbh)   (linear_before_reset = 0)
//         h~ = tanh(X Wh' + r ⊙ (H Rh' + Rbh) + Wbh)   (linear_before_reset = 1),  H = (1 - z) ⊙ h~ + z ⊙ H
//   LSTM: i = σ(.. + Pi ⊙ C), f = σ(.. + Pf ⊙ C), c~ = tanh(..), C = f ⊙ C + i ⊙ c~,
//         o = σ(.. + Po ⊙ C), H = o ⊙ tanh(C)
#include "onnx/Broadcast.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>

namespace specdec::nn {

namespace {

using Kind = UnsupportedError::Kind;

template<class T> using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template<class T> using ConstMap = Eigen::Map<const RowMatrix<T>>;

struct RnnSettings
{
    bool lstm = false;
    int directions = 1;
    bool reverseOnly = false;
    std::int64_t hidden = 0;
    int layout = 0;
    bool linearBeforeReset = false;
    bool inputForget = false;
    bool hasClip = false;
    float clip = 0.0f;
};

template<class T> T sigmoid(T v)
{
    return v >= T(0) ? T(1) / (T(1) + std::exp(-v)) : std::exp(v) / (T(1) + std::exp(v));
}

template<class T> void runRnn(const RnnSettings &s, std::span<const Tensor *const> in, std::span<Tensor> out)
{
    const Tensor &x = requireInput(in, 0, "X");
    const Tensor &w = requireInput(in, 1, "W");
    const Tensor &r = requireInput(in, 2, "R");
    auto optional = [&](std::size_t i) { return in.size() > i && in[i] && in[i]->defined() ? in[i] : nullptr; };
    const Tensor *bias = optional(3);
    const Tensor *lens = optional(4);
    const Tensor *initH = optional(5);
    const Tensor *initC = s.lstm ? optional(6) : nullptr;
    const Tensor *peep = s.lstm ? optional(7) : nullptr;
    const int gates = s.lstm ? 4 : 3;
    const std::int64_t h = s.hidden;
    const std::int64_t G = gates * h;
    if (x.rank() != 3)
        throw Error("X must have rank 3, got " + x.describe());
    const std::int64_t seq = s.layout == 0 ? x.dim(0) : x.dim(1);
    const std::int64_t batch = s.layout == 0 ? x.dim(1) : x.dim(0);
    const std::int64_t inputSize = x.dim(2);
    const int dirs = s.directions;
    if (w.shape() != Shape{dirs, G, inputSize} || r.shape() != Shape{dirs, G, h})
        throw Error("W " + w.describe() + " or R " + r.describe() + " does not match X " + x.describe()
                    + " and hidden_size " + std::to_string(h));
    if (bias && bias->shape() != Shape{dirs, 2 * G})
        throw Error("B " + bias->describe() + " does not match hidden_size " + std::to_string(h));
    const Shape stateShape = s.layout == 0 ? Shape{dirs, batch, h} : Shape{batch, dirs, h};
    for (const Tensor *t : {initH, initC})
        if (t && t->shape() != stateShape)
            throw Error("initial state " + t->describe() + " should be " + shapeToString(stateShape));
    if (peep && peep->shape() != Shape{dirs, 3 * h})
        throw Error("P " + peep->describe() + " does not match hidden_size " + std::to_string(h));
    std::vector<std::int64_t> length(static_cast<std::size_t>(batch), seq);
    if (lens) {
        length = lens->toInt64Vector();
        if (static_cast<std::int64_t>(length.size()) != batch)
            throw Error("sequence_lens " + lens->describe() + " does not match the batch " + std::to_string(batch));
        for (std::int64_t v : length)
            if (v < 0 || v > seq)
                throw Error("sequence_lens holds " + std::to_string(v) + ", outside [0, " + std::to_string(seq) + "]");
    }

    // Outputs, zero where a sequence has ended.
    const Shape yShape = s.layout == 0 ? Shape{seq, dirs, batch, h} : Shape{batch, seq, dirs, h};
    T *y = out.size() > 0 ? (out[0] = Tensor::zeros(dataTypeOf<T>(), yShape)).template mutableData<T>() : nullptr;
    T *yh = out.size() > 1 ? (out[1] = Tensor(dataTypeOf<T>(), stateShape)).template mutableData<T>() : nullptr;
    T *yc = out.size() > 2 ? (out[2] = Tensor(dataTypeOf<T>(), stateShape)).template mutableData<T>() : nullptr;
    auto yAt = [&](std::int64_t t, int d, std::int64_t b) {
        return s.layout == 0 ? ((t * dirs + d) * batch + b) * h : ((b * seq + t) * dirs + d) * h;
    };
    auto stateAt = [&](int d, std::int64_t b) { return s.layout == 0 ? (d * batch + b) * h : (b * dirs + d) * h; };

    // X as [seq, batch, input] rows.
    RowMatrix<T> xs(seq * batch, inputSize);
    const T *px = x.data<T>();
    for (std::int64_t t = 0; t < seq; ++t)
        for (std::int64_t b = 0; b < batch; ++b)
            for (std::int64_t i = 0; i < inputSize; ++i)
                xs(t * batch + b,
                   i) = px[s.layout == 0 ? (t * batch + b) * inputSize + i : (b * seq + t) * inputSize + i];

    for (int d = 0; d < dirs; ++d) {
        const bool reverse = s.reverseOnly || d == 1;
        const ConstMap<T> W(w.data<T>() + d * G * inputSize, G, inputSize);
        const ConstMap<T> R(r.data<T>() + d * G * h, G, h);
        Eigen::Matrix<T, 1, Eigen::Dynamic> wb = Eigen::Matrix<T, 1, Eigen::Dynamic>::Zero(G);
        Eigen::Matrix<T, 1, Eigen::Dynamic> rb = Eigen::Matrix<T, 1, Eigen::Dynamic>::Zero(G);
        if (bias) {
            for (std::int64_t g = 0; g < G; ++g) {
                wb(g) = bias->data<T>()[d * 2 * G + g];
                rb(g) = bias->data<T>()[d * 2 * G + G + g];
            }
        }
        RowMatrix<T> xw = xs * W.transpose();
        xw.rowwise() += wb;
        RowMatrix<T> H = RowMatrix<T>::Zero(batch, h), C = RowMatrix<T>::Zero(batch, h);
        for (std::int64_t b = 0; b < batch; ++b)
            for (std::int64_t j = 0; j < h; ++j) {
                if (initH)
                    H(b, j) = initH->data<T>()[stateAt(d, b) + j];
                if (initC)
                    C(b, j) = initC->data<T>()[stateAt(d, b) + j];
            }
        const T *P = peep ? peep->data<T>() + d * 3 * h : nullptr;
        auto clip = [&](T v) { return s.hasClip ? std::clamp(v, static_cast<T>(-s.clip), static_cast<T>(s.clip)) : v; };
        RowMatrix<T> hr(batch, G);
        for (std::int64_t step = 0; step < seq; ++step) {
            hr.noalias() = H * R.transpose();
            hr.rowwise() += rb;
            for (std::int64_t b = 0; b < batch; ++b) {
                const std::int64_t len = length[static_cast<std::size_t>(b)];
                if (step >= len)
                    continue;
                const std::int64_t t = reverse ? len - 1 - step : step;
                const T *g = &xw(t * batch + b, 0);
                const T *q = &hr(b, 0);
                for (std::int64_t j = 0; j < h; ++j) {
                    if (s.lstm) {
                        const T c = C(b, j);
                        const T i = sigmoid(clip(g[j] + q[j] + (P ? P[j] * c : T(0))));
                        const T f = s.inputForget
                            ? T(1) - i
                            : sigmoid(clip(g[2 * h + j] + q[2 * h + j] + (P ? P[2 * h + j] * c : T(0))));
                        const T cand = std::tanh(clip(g[3 * h + j] + q[3 * h + j]));
                        const T cNew = f * c + i * cand;
                        const T o = sigmoid(clip(g[h + j] + q[h + j] + (P ? P[h + j] * cNew : T(0))));
                        C(b, j) = cNew;
                        hr(b, j) = o * std::tanh(cNew); // H is still read below; stash the new value
                    } else {
                        const T z = sigmoid(clip(g[j] + q[j]));
                        const T rr = sigmoid(clip(g[h + j] + q[h + j]));
                        T pre;
                        if (s.linearBeforeReset) {
                            pre = g[2 * h + j] + rr * q[2 * h + j];
                        } else {
                            // (r ⊙ H) Rh' + Rbh: needs the whole gated row, computed below.
                            pre = rr;
                        }
                        hr(b, j) = s.linearBeforeReset ? std::tanh(clip(pre)) : pre;
                        hr(b, h + j) = z;
                    }
                }
                if (!s.lstm && !s.linearBeforeReset) {
                    Eigen::Matrix<T, 1, Eigen::Dynamic> gated = hr.row(b).head(h).cwiseProduct(H.row(b));
                    Eigen::Matrix<T, 1, Eigen::Dynamic> hh = gated * R.middleRows(2 * h, h).transpose();
                    for (std::int64_t j = 0; j < h; ++j)
                        hr(b, j) = std::tanh(clip(g[2 * h + j] + hh(j) + rb(2 * h + j)));
                }
                for (std::int64_t j = 0; j < h; ++j) {
                    T next = hr(b, j);
                    if (!s.lstm) {
                        const T z = hr(b, h + j);
                        next = (T(1) - z) * next + z * H(b, j);
                    }
                    H(b, j) = next;
                    if (y)
                        y[yAt(t, d, b) + j] = next;
                }
            }
        }
        for (std::int64_t b = 0; b < batch; ++b)
            for (std::int64_t j = 0; j < h; ++j) {
                if (yh)
                    yh[stateAt(d, b) + j] = H(b, j);
                if (yc)
                    yc[stateAt(d, b) + j] = C(b, j);
            }
    }
}

Kernel makeRnn(const NodeContext &ctx, bool lstm)
{
    ctx.requireType(0, kFloatTypes);
    RnnSettings s;
    s.lstm = lstm;
    const Attributes &a = ctx.attributes;
    s.hidden = a.requireInt("hidden_size");
    const std::string direction = a.getString("direction", "forward");
    if (direction == "bidirectional")
        s.directions = 2;
    else if (direction == "reverse")
        s.reverseOnly = true;
    else if (direction != "forward")
        throw Error("direction '" + direction + "' is not forward, reverse or bidirectional");
    s.layout = static_cast<int>(a.getInt("layout", 0));
    s.linearBeforeReset = a.getInt("linear_before_reset", 0) != 0;
    s.inputForget = a.getInt("input_forget", 0) != 0;
    s.hasClip = a.has("clip");
    s.clip = a.getFloat("clip", 0.0f);
    const std::vector<std::string> defaults = lstm ? std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"}
                                                   : std::vector<std::string>{"Sigmoid", "Tanh"};
    const std::vector<std::string> activations = a.getStrings("activations");
    for (std::size_t i = 0; i < activations.size(); ++i)
        if (activations[i] != defaults[i % defaults.size()])
            throw UnsupportedError(Kind::Attribute,
                                   "activation " + activations[i] + " is not supported (only the default Sigmoid/Tanh)");
    if (a.has("activation_alpha") || a.has("activation_beta"))
        throw UnsupportedError(Kind::Attribute, "activation_alpha / activation_beta are not supported");
    return [s](Inputs in, Outputs out, ExecContext &) {
        dispatchTypes<float, double>(requireInput(in, 0, "X").type(), s.lstm ? "LSTM" : "GRU",
                                     [&](auto tag) { runRnn<typename decltype(tag)::type>(s, in, out); });
    };
}

Kernel makeGru(const NodeContext &ctx)
{
    return makeRnn(ctx, false);
}
Kernel makeLstm(const NodeContext &ctx)
{
    return makeRnn(ctx, true);
}

} // namespace

void registerRecurrentOperators(std::vector<OperatorSpec> &specs)
{
    const std::vector<std::string> common = {"activation_alpha", "activation_beta", "activations", "clip",
                                             "direction",        "hidden_size",     "layout"};
    std::vector<std::string> gru = common, lstm = common;
    gru.push_back("linear_before_reset");
    lstm.push_back("input_forget");
    specs.push_back({"GRU", {7, 14}, gru, makeGru});
    specs.push_back({"LSTM", {7, 14}, lstm, makeLstm});
}

} // namespace specdec::nn
