// SPDX-License-Identifier: GPL-3.0-or-later
#include "QuizView.h"

#include "Lessons.h"

#include <QAction>
#include <QButtonGroup>
#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace specdec::gui {

QuizView::QuizView(QWidget *parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_question(new QLabel(this))
    , m_optionsLayout(new QVBoxLayout)
    , m_group(new QButtonGroup(this))
    , m_explanation(new QLabel(this))
    , m_caption(new QLabel(this))
    , m_previous(new QPushButton(this))
    , m_reveal(new QPushButton(this))
    , m_showMe(new QPushButton(this))
    , m_back(new QPushButton(this))
    , m_next(new QPushButton(this))
{
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    m_question->setFont(big);
    for (QLabel *l : {m_question, m_explanation, m_caption}) {
        l->setWordWrap(true);
        l->setTextFormat(Qt::PlainText);
    }
    // Colours and weights by palette role and font attribute, not style sheets: a style-sheeted widget stops
    // following its parent's font, and presenter mode scales that font. The caption is set apart by italics,
    // in the text's own colour (a grey like QPalette::Mid read 1.9:1 on the window; the room needs 4.5:1).
    QFont italic; // only the style: the size stays the window's
    italic.setItalic(true);
    m_caption->setFont(italic);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_previous);
    buttons->addStretch(1);
    buttons->addWidget(m_reveal);
    buttons->addWidget(m_showMe);
    buttons->addWidget(m_back);
    buttons->addStretch(1);
    buttons->addWidget(m_next);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(m_question);
    layout->addLayout(m_optionsLayout);
    layout->addSpacing(8);
    layout->addWidget(m_explanation);
    layout->addWidget(m_caption);
    layout->addStretch(1);
    layout->addLayout(buttons);
    connect(m_previous, &QPushButton::clicked, this, [this] { setQuestion(m_index - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { setQuestion(m_index + 1); });
    connect(m_reveal, &QPushButton::clicked, this, &QuizView::reveal);
    m_back->hide();
    connect(m_back, &QPushButton::clicked, this, [this] {
        if (m_backAction)
            m_backAction->trigger();
    });
    connect(m_showMe, &QPushButton::clicked, this, [this] {
        if (m_index < 0)
            return;
        m_shown = true;
        rebuild();
        emit showMeRequested(m_index);
    });
    retranslate();
}

void QuizView::setBackAction(QAction *action)
{
    if (m_backAction == action)
        return;
    if (m_backAction)
        disconnect(m_backAction, nullptr, this, nullptr);
    m_backAction = action;
    auto follow = [this] {
        m_back->setVisible(m_backAction && m_backAction->isEnabled());
        if (m_backAction)
            m_back->setText(m_backAction->text().remove(QLatin1Char('&')));
    };
    if (action)
        connect(action, &QAction::changed, this, follow);
    follow();
}

void QuizView::setQuiz(const app::QuizFile &quiz)
{
    m_quiz = quiz;
    m_index = -1;
    setQuestion(0);
}

void QuizView::setQuestion(int index)
{
    if (m_quiz.questions.isEmpty())
        return;
    m_index = std::clamp(index, 0, questionCount() - 1);
    m_revealed = false;
    m_shown = false;
    m_result.clear();
    rebuild();
}

QString QuizView::chosen() const
{
    QString letters;
    for (int i = 0; i < m_options.size(); ++i)
        if (m_options[i]->isChecked())
            letters += app::QuizQuestion::letter(i);
    return letters;
}

void QuizView::setChosen(const QString &letters)
{
    for (int i = 0; i < m_options.size(); ++i)
        m_options[i]->setChecked(letters.contains(app::QuizQuestion::letter(i)));
}

void QuizView::reveal()
{
    const QString picked = chosen();
    m_revealed = true;
    rebuild();
    setChosen(picked);
}

QString QuizView::optionText(int i) const
{
    return i >= 0 && i < m_options.size() ? m_options[i]->text() : QString();
}

QString QuizView::explanationText() const
{
    return m_explanation->isVisible() || m_revealed ? m_explanation->text() : QString();
}

QString QuizView::showMeText() const
{
    return m_shown || m_revealed ? m_caption->text() : QString();
}

void QuizView::setShowMeResult(const QString &text)
{
    m_result = text;
    rebuild();
}

void QuizView::rebuild()
{
    const QString picked = chosen();
    qDeleteAll(m_options);
    m_options.clear();
    if (m_index < 0 || m_index >= questionCount())
        return;
    const QString language = contentLanguage();
    const app::QuizQuestion &q = m_quiz.questions[m_index];
    m_header->setText(tr("Question %1 of %2 · %3")
                          .arg(m_index + 1)
                          .arg(questionCount())
                          .arg(q.multiple ? tr("choose all that apply") : tr("choose one")));
    m_question->setText(q.text.text(language));
    m_group->setExclusive(!q.multiple);
    for (int i = 0; i < q.options.size(); ++i) {
        const QString letter = app::QuizQuestion::letter(i);
        QString text = letter + QStringLiteral(". ") + q.options[i].text(language);
        QAbstractButton *b = q.multiple ? static_cast<QAbstractButton *>(new QCheckBox(this))
                                        : static_cast<QAbstractButton *>(new QRadioButton(this));
        if (m_revealed) {
            const bool right = q.correct.contains(letter);
            text = (right ? QStringLiteral("✓ ") : QStringLiteral("   ")) + text;
            if (right) {
                QFont bold; // only the weight: the size stays the window's
                bold.setBold(true);
                b->setFont(bold);
                QPalette palette = b->palette();
                const QColor green(0x15, 0x6b, 0x2e); // 5.3:1 on the window's #EFEFEF (WCAG AA: 4.5:1)
                palette.setColor(QPalette::ButtonText, green);
                palette.setColor(QPalette::WindowText, green);
                b->setPalette(palette);
            }
        }
        b->setText(text);
        m_group->addButton(b, i);
        m_optionsLayout->addWidget(b);
        m_options << b;
    }
    setChosen(picked);
    m_explanation->setVisible(m_revealed);
    m_explanation->setText(m_revealed ? tr("Answer: %1. %2").arg(q.correct, q.explanation.text(language)) : QString());
    QString caption = tr("Show me: %1").arg(q.showMeCaption.text(language));
    if (!m_result.isEmpty())
        caption += QLatin1Char('\n') + m_result;
    m_caption->setText(caption);
    m_caption->setVisible(m_shown || m_revealed); // the caption tells the answer: not before it is asked for
    m_previous->setEnabled(m_index > 0);
    m_next->setEnabled(m_index + 1 < questionCount());
    m_reveal->setEnabled(!m_revealed);
}

void QuizView::retranslate()
{
    m_previous->setText(tr("◀ Previous"));
    m_reveal->setText(tr("Reveal the answer"));
    m_showMe->setText(tr("Show me"));
    m_next->setText(tr("Next ▶"));
    rebuild();
}

void QuizView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
